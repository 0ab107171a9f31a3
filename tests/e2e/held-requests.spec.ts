// No lead out of sight (ADR 327), with and without JavaScript at 390×844 and 1280×800: the
// dashboard counts held requests on their own card "Zur Prüfung", "Neuste Anfragen" starts with one
// summary row "n zur Prüfung" (never a row each, never their names), and the "Anfragen" tab carries
// a badge; each leads to "Prüfen". axe-clean in light and dark.

import type { Page } from "@playwright/test";
import { countQuarantined } from "~/server/requests/quarantine.server";
import { loginAs } from "./auth";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { quarantineRequest } from "./seed";
import { switchToDarkTheme } from "./theme";

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

const words = (n: number) =>
  n === 1 ? "1 Anfrage wartet auf Prüfung" : `${n} Anfragen warten auf Prüfung`;

/** A wave of three held requests and one real lead; returns the held names. */
async function spamWave(seed: { request: (input: { name: string }) => Promise<number> }) {
  const m = Math.random().toString(16).slice(2, 8);
  const names = [1, 2, 3].map((i) => `Spamwelle ${m} ${i}`);
  for (const name of names) quarantineRequest(await seed.request({ name }));
  await seed.request({ name: `Echte Kundin ${m}` });
  return { names, real: `Echte Kundin ${m}` };
}

async function dashboard(page: Page, javaScriptEnabled: boolean) {
  await page.goto("/admin/dashboard");
  if (javaScriptEnabled) await waitForHydration(page);
}

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("the dashboard's card, the one summary row and the tab's badge lead to 'Prüfen'", async ({
      page,
      seed,
      javaScriptEnabled,
    }, testInfo) => {
      const wave = await spamWave(seed);
      await loginAs(page, await seed.admin());
      await dashboard(page, javaScriptEnabled);
      const held = countQuarantined();
      expect(held).toBeGreaterThanOrEqual(3);

      // The card, counted on its own.
      const figures = page.getByRole("region", { name: "Kennzahlen" });
      const card = figures.getByRole("link", {
        name: new RegExp(`^Zur Prüfung ${held} warten auf Freigabe$`),
      });
      await card.scrollIntoViewIfNeeded();
      await expect(card).toBeInViewport();
      await page.screenshot({ path: testInfo.outputPath(`dashboard-card-${viewport.name}.png`) });

      // One summary row, above the real lead; no held name anywhere on the dashboard.
      const latest = page.getByRole("region", { name: "Neuste Anfragen" });
      const row = latest.getByTestId("held-summary-row");
      await expect(row).toHaveCount(1);
      await expect(row).toContainText(`${held} zur Prüfung`);
      await row.scrollIntoViewIfNeeded();
      await expect(row).toBeInViewport();
      await expect(latest).toContainText(wave.real);
      for (const name of wave.names) await expect(page.getByText(name)).toHaveCount(0);
      await page.screenshot({ path: testInfo.outputPath(`dashboard-latest-${viewport.name}.png`) });

      // The tab's badge: the number, described for screen readers.
      const tab = page
        .getByRole("navigation", { name: "Admin-Bereiche" })
        .getByRole("link", { name: "Anfragen" });
      await expect(tab.getByTestId("held-requests-badge")).toHaveText(String(held));
      await expect(tab).toHaveAccessibleDescription(words(held));

      // Each way leads to the quarantine.
      await row.click();
      await expect(page).toHaveURL(/\/admin\/requests\?tab=quarantine$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Prüfen (${held})`);
      await dashboard(page, javaScriptEnabled);
      await page
        .getByRole("region", { name: "Kennzahlen" })
        .getByRole("link", { name: /^Zur Prüfung/ })
        .click();
      await expect(page).toHaveURL(/\/admin\/requests\?tab=quarantine$/);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Prüfen (${held})`);
    });
  });
}

test("the dashboard with held requests has no axe violations, light and dark @js-only", async ({
  page,
  seed,
}) => {
  // The dashboard analysed twice: over the default minute on a loaded two-core machine.
  test.setTimeout(180_000);
  await spamWave(seed);
  await loginAs(page, await seed.admin());
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") await switchToDarkTheme(page);
    await dashboard(page, true);
    await expect(page.getByTestId("held-summary-row")).toBeVisible();
    await expect(page.getByTestId("held-requests-badge")).toBeVisible();
    const results = await axeOn(page).analyze();
    expect(results.violations.map((v) => `${theme}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  }
});
