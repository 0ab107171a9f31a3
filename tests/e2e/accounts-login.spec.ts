import { loginAs } from "./auth";
import { seedAdmin } from "./db";
import { expect, test } from "./fixtures";

test("login shows the protected layout; logout returns to the login page", async ({ page }) => {
  const admin = await seedAdmin();
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin%2Fusers/);
  // The login page keeps the wanted page and returns to it.
  await page.getByLabel("Benutzername").fill(admin.username);
  await page.getByLabel("Passwort", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByText(`Willkommen, ${admin.username}`)).toBeVisible();
  const nav = page.getByRole("navigation", { name: "Admin-Bereiche" });
  for (const label of [
    "Übersicht",
    "Anfragen",
    "Termine",
    "Benutzer",
    "Affiliate Codes",
    "Einstellungen",
    "Account-Einstellungen",
  ]) {
    await expect(nav.getByRole("link", { name: label, exact: true })).toBeVisible();
  }
  await nav.getByRole("link", { name: "Übersicht" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole("button", { name: "Abmelden" }).click();
  await expect(page).toHaveURL(/\/admin\/login/);
  await expect(page.getByText("Sie wurden abgemeldet.")).toBeVisible();
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/admin\/login/);
});

test("loginAs (the shared helper) lands on the dashboard", async ({ page }) => {
  const admin = await seedAdmin();
  await loginAs(page, admin);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole("link", { name: "Übersicht" })).toHaveAttribute(
    "aria-current",
    "page",
  );
});
