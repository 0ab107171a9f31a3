import { expect, type Page } from "@playwright/test";
import { waitForHydration } from "./hydration";

/**
 * Turns the dark theme on as a visitor does (the header's switch on the landing page): with JS
 * on the hydrated page, without JS as the switch's form post (its answer leads back, dark).
 */
export async function switchToDarkTheme(page: Page, javaScriptEnabled = true) {
  await page.goto("/");
  const toDark = page.getByRole("button", { name: "Dunklen Modus aktivieren" });
  if (!javaScriptEnabled) {
    await toDark.click();
    await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    return;
  }
  await waitForHydration(page);
  await Promise.all([
    page.waitForResponse((r) => r.url().includes("/preferences/theme") && r.ok()),
    toDark.click(),
  ]);
}
