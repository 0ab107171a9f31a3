// The promises and "Testversion liefern" (ADRs 346, 348), with and without JavaScript, at 390 × 844
// and 1280 × 800: the full-screen view shows both due times and delivers the trial version (the
// lead reads it at the SMTP stand-in); the dashboard's card "Versprechen" counts due and overdue
// promises and leads to the list filtered by them; axe-clean in light and dark.

import type { Page } from "@playwright/test";
import { loginAs, signIn } from "./auth";
import { axeOn } from "./axe";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";
import { findRequest, setPromisesDue, stageOf } from "./seed";
import { switchToDarkTheme } from "./theme";

test.describe.configure({ timeout: 180_000 });

const SIZES = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

async function axeClean(page: Page, label: string) {
  const results = await axeOn(page).analyze();
  expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

for (const size of SIZES) {
  test(`an admin delivers the trial version from the full-screen view (${size.name})`, async ({
    page,
    javaScriptEnabled,
    seed,
  }, testInfo) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    const m = Math.random().toString(16).slice(2, 8);
    const lead = `trial-${m}@example.com`;
    const id = await seed.request({ name: `Theo Testkunde ${m}`, email: lead });
    const admin = await seed.admin();
    await signIn(page, admin, { to: `/admin/requests?requestId=${id}` });
    if (javaScriptEnabled) await waitForHydration(page);
    const view = page.locator("[data-fullscreen]");
    // Stage and both promises.
    const pipeline = view.getByRole("region", { name: "Phase und Versprechen" });
    await expect(pipeline.locator("[data-stage-name]")).toHaveText("Neu");
    await expect(pipeline.locator('[data-promise="contact"]')).toContainText(
      /fällig (heute|morgen|in \d+ Tagen)/,
    );
    await expect(pipeline.locator('[data-promise="trial"]')).toContainText("fällig in 3 Tagen");

    const section = view.getByRole("region", { name: "Testversion liefern" });
    await section.getByLabel("Link zur Testversion").fill("http://demo.example.com");
    await section.getByRole("button", { name: "Testversion liefern" }).click();
    // Refused at its field (nothing sent), the text kept.
    const refused = section.getByText(
      "Bitte geben Sie eine vollständige Adresse mit https:// ein.",
    );
    await expect(refused).toBeVisible();
    await expect(section.getByLabel("Link zur Testversion")).toHaveValue("http://demo.example.com");

    await section.getByLabel("Link zur Testversion").fill(`https://demo.example.com/${m}`);
    await section.getByLabel("Nachricht (optional)").fill("Schau dir die Bestellübersicht an.");
    if (javaScriptEnabled) await axeClean(page, `trial form ${size.name}`);
    await section.getByRole("button", { name: "Testversion liefern" }).click();
    await expect(
      page.locator('[aria-live="polite"]').getByText("Testversion geliefert – rechtzeitig."),
    ).toBeVisible();
    const delivered = page.locator("[data-trial-delivered]");
    await expect(delivered).toContainText(`https://demo.example.com/${m}`);
    await expect(delivered).toContainText("rechtzeitig");
    // Where the admin is: with JS the note by the form has the focus; without JS the answer lands
    // on the section.
    if (javaScriptEnabled) {
      await expect(section.locator("[data-trial-sent]")).toBeFocused();
      await expect(section.locator("[data-trial-sent]")).toBeInViewport();
    } else {
      await expect(delivered).toBeInViewport();
    }
    // The form is empty again for a later version (also of the refused link before).
    await expect(section.getByLabel("Link zur Testversion")).toHaveValue("");
    await page.screenshot({ path: testInfo.outputPath(`trial-${size.name}.png`) });
    await expect(pipeline.locator("[data-stage-name]")).toHaveText("Testversion geliefert");
    expect(stageOf(id)).toBe("trial");
    expect(findRequest(id)?.trialUrl).toBe(`https://demo.example.com/${m}`);

    const mail = await waitForMail(lead, /Deine Testversion ist da/);
    expect(mail.text).toMatch(/^Hallo Theo,/);
    expect(mail.text).toContain("Schau dir die Bestellübersicht an.");
    expect(mail.text).toContain(`Testversion öffnen: https://demo.example.com/${m}`);
    expect(mail.text).toContain("Demo-Termin buchen:");
    expect(mail.replyTo).toEqual([admin.email]);
    // In the thread of the request.
    const thread = view.getByRole("list", { name: "Nachrichten an den Kunden" });
    await expect(thread.getByText("Deine Testversion ist da")).toBeAttached();
  });
}

test("the dashboard's card Versprechen counts due and overdue promises and leads to the list", async ({
  page,
  javaScriptEnabled,
  seed,
}, testInfo) => {
  const m = Math.random().toString(16).slice(2, 8);
  const late = await seed.request({ name: `Ole Überfällig ${m}` });
  const soon = await seed.request({ name: `Hanna Heute ${m}` });
  setPromisesDue(late, {
    contactDueAt: new Date(Date.now() - 2 * 86_400_000),
    trialDueAt: new Date(Date.now() - 86_400_000),
  });
  setPromisesDue(soon, { contactDueAt: new Date(Date.now() + 60_000) });
  await loginAs(page, await seed.admin());
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto("/admin/dashboard");
    const card = page.getByRole("region", { name: "Versprechen" });
    await card.scrollIntoViewIfNeeded();
    await expect(card).toBeInViewport();
    await expect(card.locator("[data-promises-overdue]")).toHaveText(/^[1-9]\d*$/);
    await expect(card.locator("[data-promises-due]")).toHaveText(/^[1-9]\d*$/);
    await expect(card.locator("[data-promises-kept]")).toContainText(/%|–/);
    await page.screenshot({ path: testInfo.outputPath(`dashboard-${size.name}.png`) });
  }
  const card = page.getByRole("region", { name: "Versprechen" });
  await card.locator("[data-promises-overdue]").getByRole("link").click();
  await expect(page).toHaveURL(/promise=overdue/);
  const row = page.locator(`[data-request-id="${late}"]`);
  await expect(row.locator('[data-promise="contact"]')).toHaveText(
    "Erstkontakt überfällig seit 2 Tagen",
  );
  await expect(row.locator('[data-promise="trial"]')).toHaveText(
    "Testversion überfällig seit 1 Tag",
  );
  await expect(page.locator(`[data-request-id="${soon}"]`)).toHaveCount(0);
  await page.goto("/admin/requests?promise=due");
  await expect(page.locator(`[data-request-id="${soon}"] [data-promise="contact"]`)).toHaveText(
    "Erstkontakt fällig heute",
  );
  if (javaScriptEnabled) {
    await waitForHydration(page);
    await axeClean(page, "list light");
    await page.goto("/admin/dashboard");
    await axeClean(page, "dashboard light");
    await switchToDarkTheme(page);
    for (const path of [
      "/admin/dashboard",
      "/admin/requests?promise=overdue",
      `/admin/requests?requestId=${late}`,
    ]) {
      await page.goto(path);
      await expect(page.locator("html")).toHaveClass(/dark/);
      await axeClean(page, `${path} dark`);
    }
    await page.screenshot({ path: testInfo.outputPath("full-view-dark.png") });
  }
});
