import type { Page } from "@playwright/test";
import { CLASSIFICATION } from "../security/route-table";
import { loginAs } from "./auth";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { switchToDarkTheme } from "./theme";

// No admin page scrolls sideways on a phone (ADR 342): every admin route of app/routes.ts (the
// route table of the security matrix, so a new page is walked without an edit here) at 320, 390
// and 430 px, light and dark, with and without JS: `scrollWidth ≤ innerWidth`.
test.describe.configure({ timeout: 300_000 });

const WIDTHS = [320, 390, 430];
/** Admin routes that are no page to look at: a file, a redirect, JSON. */
const NOT_PAGES = new Set([
  "admin/logout",
  "admin/audit.csv",
  "admin/kalender.ics",
  "admin/requests/:id/details",
]);

const adminPages = Object.entries(CLASSIFICATION)
  .filter(([path, c]) => path.startsWith("admin/") && "page" in c && !NOT_PAGES.has(path))
  .map(([path, c]) => ({ path: `/${path}`, access: (c as { page: string }).page }));

async function measure(page: Page, path: string) {
  await page.waitForLoadState("load");
  return page.evaluate(
    (at) => ({
      at,
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }),
    path,
  );
}

for (const theme of ["light", "dark"] as const) {
  test(`no admin route scrolls sideways at 320, 390 and 430 px (${theme})`, async ({
    page,
    seed,
    javaScriptEnabled,
  }) => {
    const request = await seed.request({ name: "Schmale Bildschirme", pdf: "Skizze.pdf" });
    const start = new Date(Date.now() + 9 * 86_400_000);
    const booking = seed.appointment({
      name: "Demo-Termin",
      startTime: start,
      status: "ACCEPTED",
      requestId: request,
    });
    if (theme === "dark") await switchToDarkTheme(page, javaScriptEnabled);
    // Concrete addresses for the routes with parameters, and the views with most content.
    const concrete = (path: string) => path.replace(":id", String(booking.id));
    const extra = [`/admin/requests?requestId=${request}`, `/admin/requests?expand=${request}`];
    const wide: string[] = [];
    const walk = async (paths: string[]) => {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        for (const path of paths) {
          await page.goto(path);
          if (javaScriptEnabled) await waitForHydration(page);
          const m = await measure(page, path);
          if (m.scrollWidth > m.innerWidth)
            wide.push(`${width} ${theme} ${m.at}: ${m.scrollWidth}`);
        }
      }
    };
    // The public admin pages first (a session would lead them to the dashboard).
    await walk(adminPages.filter((p) => p.access === "public").map((p) => concrete(p.path)));
    await loginAs(page, await seed.admin());
    await walk([
      ...adminPages.filter((p) => p.access === "admin").map((p) => concrete(p.path)),
      ...extra,
    ]);
    await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
    expect(wide).toEqual([]);
    // Every admin page of the route table was walked (a new one joins by itself).
    expect(adminPages.length).toBeGreaterThanOrEqual(17);
  });
}
