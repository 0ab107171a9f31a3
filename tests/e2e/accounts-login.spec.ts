import { randomBytes } from "node:crypto";
import { loginAs } from "./auth";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

test("login shows the protected layout; logout returns to the login page", async ({
  page,
  seed,
}) => {
  const admin = await seed.admin();
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

test("loginAs (the shared helper) lands on the dashboard", async ({ page, seed }) => {
  const admin = await seed.admin();
  await loginAs(page, admin);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByRole("link", { name: "Übersicht" })).toHaveAttribute(
    "aria-current",
    "page",
  );
});

test("Account-Einstellungen: change the password, the form is cleared, back to the dashboard", async ({
  page,
  seed,
}) => {
  const admin = await seed.admin();
  await loginAs(page, admin);
  // The tab leads to "My account" (/admin/account, ADR 226), which links the password change.
  await page.getByRole("link", { name: "Account-Einstellungen" }).click();
  await expect(page).toHaveURL(/\/admin\/account$/);
  await page.getByRole("link", { name: "Passwort ändern" }).click();
  await expect(page).toHaveURL(/\/admin\/change-password$/);
  await expect(page.getByRole("heading", { name: "Sicherheitstipps" })).toBeVisible();
  const next = `${admin.password}-neu`;
  await page.getByLabel("Aktuelles Passwort").fill(admin.password);
  await page.getByLabel("Neues Passwort", { exact: true }).fill(next);
  await page.getByLabel("Neues Passwort bestätigen").fill(next);
  await page.getByRole("button", { name: "Passwort ändern" }).click();
  await expect(page.getByText("Passwort erfolgreich geändert!")).toBeVisible();
  await expect(page.getByLabel("Aktuelles Passwort")).toHaveValue("");
  await expect(page.getByLabel("Neues Passwort", { exact: true })).toHaveValue("");
  await page.getByRole("link", { name: "Zurück zum Dashboard" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole("button", { name: "Abmelden" }).click();
  await loginAs(page, { username: admin.username, password: next });
});

test("login: a wrong password stays a red error", async ({ page, javaScriptEnabled, seed }) => {
  const admin = await seed.admin();
  await page.goto("/admin/login");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("Benutzername").fill(admin.username);
  await page
    .getByLabel("Passwort", { exact: true })
    .fill(`falsch-${randomBytes(4).toString("hex")}`);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "Ungültiger Benutzername oder Passwort." }),
  ).toBeVisible();
});
