import { expect, type Page } from "@playwright/test";

/**
 * Waits until React has hydrated the page (the root's toast region marks itself), so clicks reach
 * the JS handlers instead of the no-JS form path. Only for the js-on project.
 *
 * The landing page loads its JavaScript on the visitor's first interaction (ADR 170): while its
 * inert module script is in the page, a real mouse movement is that interaction. Retried until the
 * page hydrates, as a call right after a click that submitted a form may still see the old page.
 */
export async function waitForHydration(page: Page) {
  const hydrated = page.locator("section[data-hydrated]");
  let x = 0;
  await expect(async () => {
    if (!(await hydrated.count()) && (await page.locator("script[data-lazy-hydration]").count())) {
      x = x === 1 ? 2 : 1; // a move to where the pointer already is would be no event
      await page.mouse.move(x, x);
    }
    await hydrated.waitFor({ state: "attached", timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
}
