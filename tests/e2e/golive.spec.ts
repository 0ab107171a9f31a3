import type { Page } from "@playwright/test";
import { loginAs } from "./auth";
import { axeOn } from "./axe";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";
import { switchToDarkTheme } from "./theme";

// ADRs 225, 226: the go-live check on the dashboard and "My account" (/admin/account).
// The e2e server has SMTP but an http APP_URL, example.com legal links and a generated session
// secret, so the check is shown.

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const goLive = (page: Page) => page.getByRole("region", { name: "Go-live-Check" });
const item = (page: Page, id: string) => goLive(page).locator(`li[data-check="${id}"]`);

for (const viewport of [PHONE, DESKTOP]) {
  test(`the dashboard shows the go-live check with what to do and where (${viewport.width}px)`, async ({
    page,
    loginAsNew,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    await loginAsNew(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(goLive(page).getByRole("heading", { name: "Go-live-Check" })).toBeInViewport();
    await expect(goLive(page)).toContainText(/\d von 9 Pflichtpunkten erledigt/);
    await expect(item(page, "appUrlHttps")).toContainText("Setzen Sie APP_URL");
    await expect(item(page, "legalUrls")).toContainText(
      "Setzen Sie PRIVACY_URL (Datenschutzerklärung) und IMPRINT_URL (Impressum)",
    );
    await expect(item(page, "sessionSecret")).toContainText("Setzen Sie SESSION_SECRET");
    await expect(item(page, "smtp")).toHaveAttribute("data-ok", "true");
    await expect(item(page, "ai")).toContainText("optional");
    // Each item fits the screen (nothing cut off at the side on a phone).
    const box = await item(page, "legalUrls").boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 0) <= viewport.width).toBe(true);
    await page.screenshot({ path: testInfo.outputPath(`dashboard-${viewport.width}.png`) });
    // "where": the help on setting environment variables.
    await item(page, "appUrlHttps")
      .getByRole("link", { name: "So setzen Sie Umgebungsvariablen" })
      .click();
    await expect(page.getByRole("heading", { name: "Umgebungsvariablen setzen" })).toBeInViewport();
  });
}

test("Test-E-Mail senden: the mail reaches the admin and the check turns green", async ({
  page,
  loginAsNew,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  const admin = await loginAsNew(page);
  await item(page, "testMail").getByRole("button", { name: "Test-E-Mail senden" }).click();
  const toast = page.getByRole("region", { name: "Benachrichtigungen" });
  await expect(toast).toContainText(`Die Test-E-Mail an ${admin.email} ist unterwegs.`);
  await expect(toast.getByText(/ist unterwegs/)).toBeInViewport();
  const mail = await waitForMail(admin.email, /Test-E-Mail von Anfrage-Portal/);
  expect(mail.text).toContain("funktioniert der E-Mail-Versand");
  // The worker marks it sent right after the delivery; the next load shows it.
  await expect(async () => {
    await page.goto("/admin/dashboard");
    await expect(item(page, "testMail")).toHaveAttribute("data-ok", "true", { timeout: 1000 });
  }).toPass({ timeout: 15_000 });
  await expect(item(page, "testMail")).toContainText(
    "Die Test-E-Mail wurde erfolgreich versendet.",
  );
  await page.screenshot({ path: testInfo.outputPath("dashboard-test-mail.png"), fullPage: true });
});

for (const viewport of [PHONE, DESKTOP]) {
  test(`my account: rename at once, a new address after the mailed link (${viewport.width}px)`, async ({
    page,
    loginAsNew,
    javaScriptEnabled,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const admin = await loginAsNew(page);
    // With JS the tab bar scrolls its current tab into view once hydrated: click after that.
    if (javaScriptEnabled) await waitForHydration(page);
    await page
      .getByRole("navigation", { name: "Admin-Bereiche" })
      .getByRole("link", { name: "Account-Einstellungen" })
      .click();
    await expect(page).toHaveURL(/\/admin\/account$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Account-Einstellungen");
    await expect(page.getByRole("heading", { name: "Profil" })).toBeVisible();
    // The calendar section below has a "Benutzername" of its own (the CalDAV login).
    const profile = page.getByRole("region", { name: "Profil" });
    await expect(profile.getByLabel("Benutzername")).toHaveValue(admin.username);
    await expect(profile.getByLabel("E-Mail-Adresse")).toHaveValue(admin.email);
    await page.screenshot({
      path: testInfo.outputPath(`account-${viewport.width}.png`),
      fullPage: true,
    });

    // A taken name is refused with the registration's message, at the field.
    await profile.getByLabel("Benutzername").fill("admin");
    await page.getByRole("button", { name: "Änderungen speichern" }).click();
    await expect(page.getByText("Dieser Benutzername ist bereits vergeben.")).toBeVisible();

    const renamed = `${admin.username}-neu`;
    const newEmail = `neu-${admin.email}`;
    await profile.getByLabel("Benutzername").fill(renamed);
    await profile.getByLabel("E-Mail-Adresse").fill(newEmail);
    // A new address needs the current password.
    await page.getByRole("button", { name: "Änderungen speichern" }).click();
    await expect(
      page.getByText(
        "Bitte geben Sie Ihr aktuelles Passwort ein, um die E-Mail-Adresse zu ändern.",
      ),
    ).toBeVisible();
    await profile.getByLabel("Benutzername").fill(renamed);
    await profile.getByLabel("E-Mail-Adresse").fill(newEmail);
    // The profile's field: the security section (2FA, API access) asks for the password too.
    await page
      .getByRole("region", { name: "Profil" })
      .getByLabel("Aktuelles Passwort")
      .fill(admin.password);
    await page.getByRole("button", { name: "Änderungen speichern" }).click();
    const notice = page.getByRole("status").filter({ hasText: "Bestätigungslink" });
    await expect(notice).toContainText(`Wir haben einen Bestätigungslink an ${newEmail} gesendet.`);
    await expect(notice).toBeInViewport();
    await expect(page.getByText(`Willkommen, ${renamed}`)).toBeVisible();
    // Until confirmed, the old address stays.
    await expect(profile.getByLabel("E-Mail-Adresse")).toHaveValue(admin.email);
    await page.screenshot({ path: testInfo.outputPath(`account-pending-${viewport.width}.png`) });

    await waitForMail(admin.email, /Änderung Ihrer E-Mail-Adresse angefordert/);
    const confirm = await waitForMail(newEmail, /Bitte bestätigen Sie Ihre neue E-Mail-Adresse/);
    const link = confirm.text.match(
      /https?:\/\/\S+\/admin\/account\/email-confirm\?token=\S+/,
    )?.[0];
    expect(link).toBeTruthy();
    await page.goto(link as string);
    await expect(page.getByText(newEmail)).toBeVisible();
    await page.getByRole("button", { name: "E-Mail-Adresse bestätigen" }).click();
    await expect(page).toHaveURL(/\/admin\/account$/);
    await expect(page.getByRole("region", { name: "Benachrichtigungen" })).toContainText(
      `Ihre E-Mail-Adresse ist jetzt ${newEmail}.`,
    );
    await expect(profile.getByLabel("E-Mail-Adresse")).toHaveValue(newEmail);
    await waitForMail(admin.email, /Ihre E-Mail-Adresse wurde geändert/);
    // The password change stays where the spec has it, linked from here.
    // (Reached by keyboard: at the page's foot the toast may lie over it, JS off until closed.)
    await page.getByRole("link", { name: "Passwort ändern" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/\/admin\/change-password$/);
  });
}

test("the first admin is led to the account after the forced password change while the address is the default", async ({
  page,
  seed,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  const suffix = Math.random().toString(36).slice(2, 8);
  const admin = await seed.admin({
    username: `erst-${suffix}`,
    email: `erst-${suffix}@localhost.localdomain`,
    passwordChanged: false,
  });
  await page.goto("/admin/login");
  await page.getByLabel("Benutzername").fill(admin.username);
  await page.getByLabel("Passwort", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Anmelden" }).click();
  await expect(page).toHaveURL(/\/admin\/change-password\?firstLogin=1/);
  const fresh = `neu-${admin.password}`;
  await page.getByLabel("Aktuelles Passwort").fill(admin.password);
  await page.getByLabel("Neues Passwort", { exact: true }).fill(fresh);
  await page.getByLabel("Neues Passwort bestätigen").fill(fresh);
  await page.getByRole("button", { name: "Passwort ändern" }).click();
  await expect(page).toHaveURL(/\/admin\/account$/);
  const warning = page.getByRole("status").filter({ hasText: "kann nichts zugestellt werden" });
  await expect(warning).toBeInViewport();
  await expect(warning).toContainText(admin.email);
  await expect(page.getByLabel("E-Mail-Adresse")).toHaveValue(admin.email);
  await page.screenshot({ path: testInfo.outputPath("first-admin-account.png") });
  // The whole admin area is open now.
  await expect(
    page.getByRole("navigation", { name: "Admin-Bereiche" }).getByRole("link"),
  ).toHaveCount(7);
});

for (const theme of ["light", "dark"] as const) {
  test(`the dashboard with the go-live check and the account page have no axe violations (${theme}) @js-only`, async ({
    page,
    seed,
  }) => {
    const admin = await seed.admin({ email: `axe-${Date.now()}@localhost.localdomain` });
    await loginAs(page, admin);
    if (theme === "dark") {
      await switchToDarkTheme(page);
    }
    for (const [path, heading] of [
      ["/admin/dashboard", "Übersicht"],
      ["/admin/account", "Account-Einstellungen"],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(heading);
      await expect(page.locator("html")).toHaveClass(theme === "dark" ? /dark/ : /^(?!.*dark)/);
      if (path === "/admin/dashboard") await expect(goLive(page)).toBeVisible();
      const results = await axeOn(page).analyze();
      expect(
        results.violations.map((v) => `${path}: ${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`),
      ).toEqual([]);
    }
  });
}
