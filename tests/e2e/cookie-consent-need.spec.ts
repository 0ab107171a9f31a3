import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// A cookie bar only where something needs consent (ADR 343): analytics. Without
// GA_MEASUREMENT_ID (the stack's plain server) no bar asks and no footer link leads to one; with it
// (the stack's app) the bar and the way back to its settings stay. At 390 and 1280 px, JS on and off.
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

for (const size of SIZES) {
  test(`no cookie bar and no "Cookie-Einstellungen" without analytics (${size.width})`, async ({
    page,
    plainApp,
    javaScriptEnabled,
  }, testInfo) => {
    await page.setViewportSize(size);
    for (const path of ["/", "/?cookies=1"]) {
      await page.goto(`${plainApp.url}${path}`);
      if (javaScriptEnabled) await waitForHydration(page);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByRole("region", { name: "Cookie-Einstellungen" })).toHaveCount(0);
      const legal = page.getByRole("navigation", { name: "Rechtliches" });
      await expect(legal.getByRole("link", { name: "Datenschutz" })).toBeAttached();
      await expect(legal.getByRole("link", { name: "Cookie-Einstellungen" })).toHaveCount(0);
    }
    await page.screenshot({ path: testInfo.outputPath(`no-cookie-bar-${size.width}.png`) });
  });

  test(`with analytics the bar asks, and the footer leads back to its settings (${size.width})`, async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize(size);
    await page.goto("/");
    if (javaScriptEnabled) await waitForHydration(page);
    const bar = page.getByRole("region", { name: "Cookie-Einstellungen" });
    await expect(bar).toBeInViewport();
    await bar.getByRole("button", { name: "Nur notwendige" }).click();
    await expect(bar).toHaveCount(0);
    const settings = page
      .getByRole("navigation", { name: "Rechtliches" })
      .getByRole("link", { name: "Cookie-Einstellungen" });
    await settings.scrollIntoViewIfNeeded();
    await settings.click();
    await expect(page.getByRole("region", { name: "Cookie-Einstellungen" })).toBeInViewport();
  });
}
