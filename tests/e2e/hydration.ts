import type { Page } from "@playwright/test";

/**
 * Waits until React has hydrated the page (the root's toast region marks itself), so clicks reach
 * the JS handlers instead of the no-JS form path. Only for the js-on project.
 */
export async function waitForHydration(page: Page) {
  await page.locator("section[data-hydrated]").waitFor({ state: "attached" });
}
