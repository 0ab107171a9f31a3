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

/**
 * Signs `page` in without showing the login page: the login form's POST as a browser sends it
 * without JavaScript, through the page's own request context (the session cookie lands in the
 * page's cookies), then the page the login leads to — or `to`. For preambles, where the login is
 * not what the test is about; the form itself is tested in accounts-login.spec.ts, both ways
 * (ADR 331).
 */
export async function signIn(
  page: Page,
  credentials: { username: string; password: string },
  { to, baseUrl = "" }: { to?: string; baseUrl?: string } = {},
) {
  const answer = await page.request.post(`${baseUrl}/admin/login`, {
    form: { username: credentials.username, password: credentials.password },
    maxRedirects: 0,
  });
  const location = answer.headers().location ?? "";
  expect(answer.status(), `login of ${credentials.username}: ${location}`).toBe(302);
  expect(location).not.toMatch(/\/admin\/login/);
  // A target with a fragment is a same-document navigation when the page is at that address
  // already (the page would keep its state from before the login): load it from a blank page.
  const target = `${baseUrl}${to ?? location}`;
  if (target.includes("#")) await page.goto("about:blank");
  await page.goto(target);
  await expect(page).not.toHaveURL(/\/admin\/login/);
}

/** The path and query of the first link to `path` in a mail text (the mail links use APP_URL). */
export function mailLink(text: string, path: string) {
  const match = text.match(new RegExp(`https?://\\S+${path}\\?token=[\\w%-]+`));
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  const url = new URL(match[0]);
  return url.pathname + url.search;
}
