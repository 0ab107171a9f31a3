import { randomBytes } from "node:crypto";
import type { Page } from "@playwright/test";
import { loginAs, mailLink, signIn } from "./auth";
import { axeOn } from "./axe";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";
import { findAdmin } from "./seed";
import { FIRST_ADMIN } from "./stack";
import { passStepUp } from "./step-up-helpers";

const unique = () => randomBytes(4).toString("hex");

async function logout(page: Page) {
  await page.getByRole("button", { name: "Abmelden" }).click();
  await expect(page).toHaveURL(/\/admin\/login/);
}

async function changeFirstPassword(page: Page, oldPassword: string, newPassword: string) {
  await expect(page).toHaveURL(/\/admin\/change-password\?firstLogin=1/);
  await expect(page.getByText("Dies ist Ihre erste Anmeldung")).toBeVisible();
  // Until the password is changed, other protected pages lead back here.
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/admin\/change-password\?firstLogin=1/);
  await page.getByLabel("Aktuelles Passwort").fill(oldPassword);
  await page.getByLabel("Neues Passwort", { exact: true }).fill(newPassword);
  await page.getByLabel("Neues Passwort bestätigen").fill(newPassword);
  await page.getByRole("button", { name: "Passwort ändern" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByText("Passwort erfolgreich geändert!")).toBeVisible();
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/admin\/users$/);
}

test("first login with a random password forces a password change, then the dashboard opens", async ({
  page,
  seed,
}) => {
  // An admin whose first password was printed to the log (password_changed = 0).
  const admin = await seed.admin({ passwordChanged: false });
  await loginAs(page, admin);
  await changeFirstPassword(page, admin.password, `neu-${unique()}-passwort`);
});

test("the first admin from ADMIN_PASSWORD is not forced to change it and follows deep links", async ({
  page,
}) => {
  // This worker's server created its first admin with ADMIN_PASSWORD (tests/e2e/stack.ts).
  expect(findAdmin(FIRST_ADMIN.email)?.passwordChanged).toBe(true);
  // A deep link from a notification mail leads through the login to the wanted page.
  await page.goto("/admin/users");
  await expect(page).toHaveURL(/\/admin\/login/);
  await page.getByLabel("Benutzername").fill(FIRST_ADMIN.username);
  await page.getByLabel("Passwort", { exact: true }).fill(FIRST_ADMIN.password);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await expect(page.getByText("Dies ist Ihre erste Anmeldung")).toHaveCount(0);
});

test("invite → register from the mailed link → activate → log in as the new admin", async ({
  page,
  seed,
}) => {
  const inviter = await seed.admin();
  const email = `neu-${unique()}@example.com`;
  const username = `neu-${unique()}`;
  const password = `passwort-${unique()}`;

  await loginAs(page, inviter);
  await page.getByRole("link", { name: "Benutzer", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/users$/);
  await page.getByLabel("E-Mail-Adresse").fill(email);
  await page.getByRole("button", { name: "Einladung senden" }).click();
  await expect(page.getByText(`Einladung an ${email} gesendet.`)).toBeVisible();
  const row = page.getByTestId(`invitation-row-${email}`);
  await expect(row).toContainText(inviter.username);

  const mail = await waitForMail(email, /Einladung/);
  await logout(page);
  await page.goto(mailLink(mail.text, "/admin/register"));
  await expect(page.getByText(`Sie wurden als ${email} eingeladen`)).toBeVisible();
  await page.getByLabel("Benutzername").fill(username);
  await page.getByLabel("Passwort", { exact: true }).fill(password);
  await page.getByLabel("Passwort bestätigen").fill(password);
  await page.getByRole("button", { name: "Registrieren" }).click();
  await expect(page.getByText("Registrierung erfolgreich!")).toBeVisible();
  // After 3 seconds the login page follows (JS navigation or meta refresh without JS).
  await expect(page).toHaveURL(/\/admin\/login\?notice=registered/, { timeout: 8000 });
  await expect(page.getByText("wartet auf die Freischaltung")).toBeVisible();

  await signIn(page, inviter, { to: "/admin/users" });
  const adminRow = page.getByTestId(`admin-row-${username}`);
  await expect(adminRow).toContainText("Inaktiv");
  await expect(adminRow).toContainText("Nie");
  await adminRow.getByRole("button", { name: `${username} aktivieren` }).click();
  // Power over another account: the inviter confirms with the password (ADR 315).
  await passStepUp(page, inviter.password);
  await expect(page.getByText(`${username} wurde aktiviert.`)).toBeVisible();
  await expect(page.getByTestId(`admin-row-${username}`)).toContainText("Aktiv");
  await logout(page);

  await loginAs(page, { username, password });
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await expect(page.getByText(`Willkommen, ${username}`)).toBeVisible();
});

test("forgot password → reset from the mailed link → log in with the new password", async ({
  page,
  javaScriptEnabled,
  seed,
}) => {
  const admin = await seed.admin();
  const newPassword = `zurueck-${unique()}`;
  await page.goto("/admin/login");
  await page.getByRole("link", { name: "Passwort vergessen?" }).click();
  await expect(page).toHaveURL(/\/admin\/forgot-password$/);
  await page.getByLabel("E-Mail-Adresse").fill(admin.email);
  await page.getByRole("button", { name: "Link senden" }).click();
  await expect(page.getByText("Falls ein Konto mit dieser E-Mail-Adresse existiert")).toBeVisible();

  const mail = await waitForMail(admin.email, /Passwort zurücksetzen/);
  await page.goto(mailLink(mail.text, "/admin/reset-password"));
  if (javaScriptEnabled) await waitForHydration(page);
  const submit = page.getByRole("button", { name: "Passwort zurücksetzen" });
  if (javaScriptEnabled) {
    await page.getByLabel("Neues Passwort").fill("kurz");
    await expect(page.getByTestId("password-strength")).toHaveText("Passwortstärke: Zu kurz");
    await expect(submit).toBeDisabled();
  }
  await page.getByLabel("Neues Passwort").fill(newPassword);
  if (javaScriptEnabled) {
    await expect(page.getByTestId("password-strength")).toHaveText("Passwortstärke: Stark");
  }
  await page.getByLabel("Passwort bestätigen").fill(newPassword);
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(page.getByText("Ihr Passwort wurde erfolgreich zurückgesetzt.")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login\?notice=reset/, { timeout: 8000 });

  await loginAs(page, { username: admin.username, password: newPassword });
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});

test("activate an invitation directly: credentials shown once, the invitee gets a set-password link", async ({
  page,
  seed,
}) => {
  const inviter = await seed.admin();
  const email = `direkt-${unique()}@example.com`;
  await signIn(page, inviter, { to: "/admin/users" });
  await page.getByLabel("E-Mail-Adresse").fill(email);
  await page.getByRole("button", { name: "Einladung senden" }).click();
  const row = page.getByTestId(`invitation-row-${email}`);
  await row.getByText("Aktionen").click();
  await row.getByRole("button", { name: "Direkt freischalten" }).click();
  await passStepUp(page, inviter.password);
  const username = (await page.getByTestId("activated-username").textContent()) ?? "";
  const password = (await page.getByTestId("activated-password").textContent()) ?? "";
  expect(username).toMatch(/^direkt-/);
  expect(password.length).toBeGreaterThanOrEqual(12);
  // With SMTP (the stack has one) the page says the link went out by mail.
  await expect(page.getByText(/hat eine E-Mail mit einem Link zum Festlegen/)).toBeVisible();
  const mail = await waitForMail(email, /freigeschaltet/);
  expect(mail.text).toContain(username);
  expect(mail.text).not.toContain(password);
  expect(mailLink(mail.text, "/admin/reset-password")).toContain("token=");
  await expect(page.getByTestId(`invitation-row-${email}`)).toHaveCount(0);
});

// The users page on a phone – rows stack, actions reachable, axe clean.
test("users page at 390 px: rows stack as cards, actions reachable, no axe violations", async ({
  page,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const me = await seed.admin();
  const other = await seed.admin();
  const email = `handy-${unique()}@example.com`;
  await signIn(page, me, { to: "/admin/users" });
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("E-Mail-Adresse").fill(email);
  await page.getByRole("button", { name: "Einladung senden" }).click();
  const invitation = page.getByTestId(`invitation-row-${email}`);
  await expect(invitation).toBeVisible();
  // Without JS the answer is a new document: its layout is measured once its stylesheet applies
  // (the row can be in the DOM before; a forced layout does not wait for the CSS).
  await page.waitForLoadState("load");

  // No sideways scrolling: the page is as wide as the phone.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);
  const remove = page.getByRole("button", { name: `${other.username} löschen`, exact: true });
  await remove.scrollIntoViewIfNeeded();
  await expect(remove).toBeInViewport();
  await invitation.getByText("Aktionen").click();
  const activate = invitation.getByRole("button", { name: "Direkt freischalten" });
  await activate.scrollIntoViewIfNeeded();
  await expect(activate).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("users-390.png"), fullPage: true });

  // axe runs as a script inside the page: only with JavaScript (the markup is the same without).
  if (javaScriptEnabled) {
    const results = await axeOn(page).analyze();
    expect(results.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  }
});
