import { loginAs } from "./auth";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { switchToDarkTheme } from "./theme";

// Every admin page, after the first password change, in light and dark: no axe violations.
const PAGES = [
  ["/admin/dashboard", "Übersicht"],
  ["/admin/requests", "Anfragen"],
  ["/admin/appointments", "Termine"],
  ["/admin/users", "Benutzer"],
  ["/admin/affiliate-codes", "Affiliate Codes"],
  ["/admin/settings", "System-Konfiguration"],
  ["/admin/change-password", "Passwort ändern"],
] as const;

// Seven pages, each analysed by axe: well over the default minute on a loaded two-core machine.
test.describe.configure({ timeout: 180_000 });

for (const theme of ["light", "dark"] as const) {
  test(`admin pages have no axe violations (${theme})`, async ({ page, seed }) => {
    await seed.request({ name: `Axe ${theme}` });
    const admin = await seed.admin();
    await loginAs(page, admin);
    // The theme as a visitor or admin chooses it: the header toggle sets the cookie.
    if (theme === "dark") {
      await switchToDarkTheme(page);
    }
    for (const [path, heading] of PAGES) {
      await page.goto(path);
      // Really on the page (not redirected to login or the forced password change).
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      await expect(page.getByRole("heading", { level: 1 }).first()).toContainText(heading);
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
      const results = await axeOn(page).analyze();
      expect(
        results.violations.map((v) => `${path}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`),
      ).toEqual([]);
    }
  });
}

// No theme chosen and a dark OS: the CSS media query themes the pages; they stay axe-clean too.
test("admin pages with the OS dark preference and no choice have no axe violations", async ({
  page,
  loginAsNew,
  seed,
}) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await seed.request({ name: "Axe System", pdf: "Skizze.pdf" });
  await loginAsNew(page);
  for (const [path, heading] of [PAGES[0], PAGES[1]]) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1 }).first()).toContainText(heading);
    await expect(page.locator("html")).not.toHaveClass(/dark|light/);
    const results = await axeOn(page).analyze();
    expect(
      results.violations.map((v) => `${path}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`),
    ).toEqual([]);
  }
});
