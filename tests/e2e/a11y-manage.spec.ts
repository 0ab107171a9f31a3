import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { bookAndOpenManageLink } from "./manage-helpers";
import { switchToDarkTheme } from "./theme";

// The visitor's manage page in each step (overview, reschedule, cancel confirmation, error), light
// and dark: no axe violations. JS-on only (axe runs inside the page); the HTML is the server's in
// both projects.
test("the manage page has no axe violations (light and dark)", async ({ page }) => {
  // A booking plus eight axe runs: more than the default minute on the shared machine.
  test.setTimeout(120_000);
  const tag = Math.random().toString(36).slice(2, 8);
  const { path } = await bookAndOpenManageLink(page, true, {
    name: `Alma Axe ${tag}`,
    email: `alma-${tag}@example.com`,
  });
  const steps = [
    path,
    `${path}&schritt=verschieben`,
    `${path}&schritt=absagen`,
    "/termin/verwalten?token=x",
  ];
  for (const theme of ["light", "dark"] as const) {
    if (theme === "dark") {
      await switchToDarkTheme(page);
    }
    for (const url of steps) {
      await page.goto(url);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
      const results = await axeOn(page).analyze();
      expect(
        results.violations.map((v) => `${theme} ${url}: ${v.id} ${v.nodes[0]?.target}`),
      ).toEqual([]);
    }
  }
});
