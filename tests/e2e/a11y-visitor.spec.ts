import type { Page } from "@playwright/test";
import { axeOn } from "./axe";
import { requestIdOf, submitVisitorRequest } from "./fidelity-helpers";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { switchToDarkTheme } from "./theme";

// The visitor's pages under one layout (ADR 216) have no axe violations, light and dark, at
// 390×844: the cookie bar (closed and opened), the booking page opened at a day's times under the site header,
// the withdrawal page with its contact block. JS-on only (axe runs inside the page); the HTML is
// the server's in both projects. The invalid-link page is in a11y-manage.spec.ts.
test.use({ viewport: { width: 390, height: 844 } });

async function violations(page: Page, include?: string) {
  const builder = axeOn(page);
  if (include) builder.include(include);
  const results = await builder.analyze();
  return results.violations.map((v) => `${page.url()} ${v.id} ${v.nodes[0]?.target}`);
}

async function useTheme(page: Page, theme: "light" | "dark") {
  if (theme === "light") return;
  await switchToDarkTheme(page);
}

for (const theme of ["light", "dark"] as const) {
  test(`visitor pages of issue 24 have no axe violations (${theme})`, async ({ page }) => {
    test.setTimeout(120_000);
    const tag = Math.random().toString(36).slice(2, 8);
    const email = `axel-${tag}@example.com`;
    await useTheme(page, theme);
    await page.goto("/");
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
    const bar = page.getByRole("region", { name: "Cookie-Einstellungen" });
    await expect(bar).toBeVisible();
    expect(await violations(page, "#cookie-consent")).toEqual([]);
    await bar.getByText("Details", { exact: true }).click();
    await expect(bar.getByRole("button", { name: "Auswahl speichern" })).toBeVisible();
    expect(await violations(page, "#cookie-consent")).toEqual([]);

    await submitVisitorRequest(page, `Axel ${tag}`, email, true);
    await page.goto(`/termin?anfrage=${requestIdOf(email)}`);
    await waitForHydration(page);
    // Next month, as the booking specs do: at a month's end its own has no bookable day left.
    await page.getByRole("link", { name: "Nächster Monat" }).click();
    await expect(page).toHaveURL(/monat=/);
    await page.locator("a[aria-label][href*='tag=']").first().click();
    await expect(page.locator("h2#zeiten")).toBeFocused();
    expect(await violations(page)).toEqual([]);

    await page.goto("/anfrage-zurueckziehen");
    await expect(page.getByRole("region", { name: "So erreichst du uns" })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}
