import { expect, type Page, type Route } from "@playwright/test";

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

/** True for a request of the app's own JavaScript (the build's `/assets/*.js`). */
export const isAppScript = (url: string) =>
  /\/assets\/[^/?]+\.js(\?|$)/.test(new URL(url).pathname);

/**
 * Holds every request for the app's JavaScript until `release()`: the page stays as the server
 * rendered it (a press, a scroll or typing before hydration), then hydrates.
 */
export async function holdScripts(page: Page) {
  const held: Route[] = [];
  let released = false;
  await page.route(
    (url) => isAppScript(url.href),
    (route) => {
      if (released) return route.continue();
      held.push(route);
    },
  );
  return {
    held: () => held.length,
    async release() {
      released = true;
      // Requests of a page that navigated away meanwhile are gone: nothing to continue there.
      for (const route of held.splice(0)) await route.continue().catch(() => {});
    },
  };
}
