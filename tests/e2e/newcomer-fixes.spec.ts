import AxeBuilder from "@axe-core/playwright";
import { loginAs } from "./auth";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

const unique = () => Math.random().toString(36).slice(2, 8);

// Newcomer walkthrough: the users page on a phone – rows stack, actions reachable, axe clean.
test("users page at 390 px: rows stack as cards, actions reachable, no axe violations", async ({
  page,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const me = await seed.admin();
  const other = await seed.admin();
  const email = `handy-${unique()}@example.com`;
  await loginAs(page, me);
  await page.goto("/admin/users");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("E-Mail-Adresse").fill(email);
  await page.getByRole("button", { name: "Einladung senden" }).click();
  const invitation = page.getByTestId(`invitation-row-${email}`);
  await expect(invitation).toBeVisible();
  // Without JS the answer is a new document: its layout is measured once its stylesheet applies
  // (the row can be in the DOM before; a forced layout does not wait for the CSS).
  await page.waitForLoadState("load");

  // No sideways scrolling: the page is as wide as the phone.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  const remove = page.getByRole("button", { name: `${other.username} löschen`, exact: true });
  await remove.scrollIntoViewIfNeeded();
  await expect(remove).toBeInViewport();
  await invitation.getByText("Aktionen").click();
  const activate = invitation.getByRole("button", { name: "Direkt freischalten" });
  await activate.scrollIntoViewIfNeeded();
  await expect(activate).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("users-390.png"), fullPage: true });

  // axe runs as a script inside the page: only with JavaScript (the markup is the same without).
  if (javaScriptEnabled) {
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  }
});

// Newcomer walkthrough: on a phone the sticky save bar must not cover a button the keyboard reaches.
test("settings at 390 px: a focused button is not behind the sticky save bar", async ({
  page,
  seed,
  javaScriptEnabled,
}) => {
  seed.configuration({});
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, await seed.admin());
  await page.goto("/admin/settings");
  if (javaScriptEnabled) await waitForHydration(page);
  const add = page.locator("#spam").getByRole("button", { name: "Eintrag hinzufügen" });
  await page.evaluate(() => window.scrollTo(0, 0));
  await add.focus();
  await expect(add).toBeFocused();
  await expect(add).toBeInViewport();
  const button = await add.boundingBox();
  const bar = await page.locator("[data-save-bar]").boundingBox();
  expect(button && bar && button.y + button.height).toBeLessThanOrEqual(bar?.y ?? 0);
});

// Newcomer walkthrough: a row moved to the top keeps the focus on its (enabled) other button.
test("preparation fields: moved to the top, the row's 'nach unten' takes the focus", async ({
  page,
  seed,
  javaScriptEnabled,
}) => {
  seed.configuration({});
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAs(page, await seed.admin());
  await page.goto("/admin/settings");
  if (javaScriptEnabled) await waitForHydration(page);
  // "Kernfunktionen" is the second row (after "Zielgruppe"): one step up is the top.
  const up = page.getByRole("button", { name: "Feld Kernfunktionen nach oben" });
  await expect(page.locator("#preparation-1-up")).toHaveAccessibleName(
    "Feld Kernfunktionen nach oben",
  );
  await up.click();
  const down = page.getByRole("button", { name: "Feld Kernfunktionen nach unten" });
  await expect(down).toBeFocused();
  await expect(down).toBeInViewport();
  await expect(page.getByRole("button", { name: "Feld Kernfunktionen nach oben" })).toBeDisabled();
  if (!javaScriptEnabled) {
    await expect(page.getByText("Feld verschoben – zum Übernehmen bitte speichern.")).toBeVisible();
  }
});
