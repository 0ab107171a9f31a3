import type { Page } from "@playwright/test";
import { expect } from "@playwright/test";

/**
 * Logs in through the real login form (works with and without JavaScript).
 * Contract of /admin/login: inputs labelled 'Benutzername' and 'Passwort', submit button 'Anmelden'.
 */
export async function loginAs(
  page: Page,
  credentials: { username: string; password: string },
  baseUrl = "",
) {
  await page.goto(`${baseUrl}/admin/login`);
  await page.getByLabel("Benutzername").fill(credentials.username);
  await page.getByLabel("Passwort", { exact: true }).fill(credentials.password);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page).not.toHaveURL(/\/admin\/login/);
}
