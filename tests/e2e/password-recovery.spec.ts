import { randomBytes } from "node:crypto";
import { loginAs, mailLink, signIn } from "./auth";
import { expect, test, waitForMail } from "./fixtures";
import { holdScripts, waitForHydration } from "./hydration";
import { passStepUp } from "./step-up-helpers";

// Password recovery: the forgot-password answer with SMTP (the spec's neutral text) and without it
// (no claim that a mail was sent; the way to a reset link named), a one-time reset link handed out
// by another admin, and a reset form filled before the page hydrates.

const PHONE = { width: 390, height: 844 };
const tag = () => randomBytes(4).toString("hex");

test("forgot password with SMTP: the spec's neutral text", async ({ page, javaScriptEnabled }) => {
  await page.goto("/admin/forgot-password");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("E-Mail-Adresse").fill(`vergessen-${tag()}@example.com`);
  await page.getByRole("button", { name: "Link senden" }).click();
  await expect(page.getByRole("status")).toHaveText(
    "Falls ein Konto mit dieser E-Mail-Adresse existiert, wurde ein Link zum Zurücksetzen des Passworts gesendet.",
  );
});

test("forgot password without SMTP: the answer does not claim a mail was sent", async ({
  page,
  javaScriptEnabled,
  plainApp,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  await page.goto(`${plainApp.url}/admin/forgot-password`);
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("E-Mail-Adresse").fill(`vergessen-${tag()}@example.com`);
  await page.getByRole("button", { name: "Link senden" }).click();
  const answer = page.getByRole("status").filter({ hasText: "Ihre Anfrage wurde gespeichert." });
  await expect(answer).toBeInViewport();
  await expect(answer).toContainText("wird keine E-Mail verschickt");
  await expect(answer).toContainText("Passwort-Reset-Link zu erzeugen");
  await expect(page.getByText("wurde ein Link zum Zurücksetzen")).toHaveCount(0);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await page.screenshot({ path: testInfo.outputPath("forgot-no-smtp-390.png"), fullPage: true });
});

test("password recovery without SMTP: the forgot page says so; another admin hands out a one-time reset link", async ({
  page,
  browser,
  javaScriptEnabled,
  calcomApp,
  seed,
}) => {
  // The stack's second server runs without SMTP_URL.
  await page.goto(`${calcomApp.url}/admin/forgot-password`);
  await expect(page.getByTestId("no-smtp-notice")).toContainText(
    "kein E-Mail-Versand (SMTP) eingerichtet",
  );
  await expect(page.getByTestId("no-smtp-notice")).toContainText("npm run admin:reset-password");
  // With SMTP (the main server) the page says nothing of the kind.
  await page.goto("/admin/forgot-password");
  await expect(page.getByRole("button", { name: "Link senden" })).toBeVisible();
  await expect(page.getByTestId("no-smtp-notice")).toHaveCount(0);

  const helper = await seed.admin();
  const locked = await seed.admin();
  await signIn(page, helper, { to: "/admin/users" });
  if (javaScriptEnabled) await waitForHydration(page);
  await page
    .getByRole("button", { name: `Passwort-Reset-Link erzeugen: ${locked.username}` })
    .click();
  // The helper confirms with the password (ADR 315). This server has SMTP: the link goes to the
  // colleague's mailbox, never to the helper (without SMTP it is shown: accounts-golive.spec.ts).
  await passStepUp(page, helper.password);
  await expect(
    page
      .getByRole("region", { name: "Benachrichtigungen" })
      .getByText(`per E-Mail an ${locked.username} (${locked.email}) gesendet`),
  ).toBeVisible();
  await expect(page.getByTestId("reset-link-notice")).toHaveCount(0);
  const mail = await waitForMail(locked.email, /Zurücksetzen Ihres Passworts/);
  const link = mail.text.match(/https?:\/\/\S+\/admin\/reset-password\?token=[\w%-]+/)?.[0] ?? "";
  expect(link).toMatch(/\/admin\/reset-password\?token=/);

  const newPassword = `zurueck-${Math.random().toString(16).slice(2, 10)}`;
  const other = await browser.newContext({ javaScriptEnabled });
  const lockedPage = await other.newPage();
  const url = new URL(link);
  await lockedPage.goto(`${url.pathname}${url.search}`);
  if (javaScriptEnabled) await waitForHydration(lockedPage);
  await lockedPage.getByLabel("Neues Passwort").fill(newPassword);
  await lockedPage.getByLabel("Passwort bestätigen").fill(newPassword);
  await lockedPage.getByRole("button", { name: "Passwort zurücksetzen" }).click();
  await expect(lockedPage.getByText("Ihr Passwort wurde erfolgreich zurückgesetzt.")).toBeVisible();
  await loginAs(lockedPage, { username: locked.username, password: newPassword });
  await expect(lockedPage).toHaveURL(/\/admin\/dashboard$/);
  await other.close();
});

test("reset password: fields filled before the page hydrates keep the button enabled; the reset works @js-only", async ({
  page,
  seed,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  const admin = await seed.admin();
  const asked = await page.request.post("/admin/forgot-password", {
    form: { email: admin.email },
  });
  expect(asked.ok()).toBe(true);
  const mail = await waitForMail(admin.email, /Passwort zurücksetzen/);

  // The page's JavaScript is held back until both fields are filled (a password manager).
  const scripts = await holdScripts(page);
  await page.goto(mailLink(mail.text, "/admin/reset-password"), { waitUntil: "commit" });
  const newPassword = `frueh-${tag()}`;
  await page.getByLabel("Neues Passwort").fill(newPassword);
  await page.getByLabel("Passwort bestätigen").fill(newPassword);
  await scripts.release();
  await waitForHydration(page);

  const submit = page.getByRole("button", { name: "Passwort zurücksetzen" });
  await expect(page.getByTestId("password-strength")).toHaveText("Passwortstärke: Stark");
  await expect(submit).toBeEnabled();
  await page.screenshot({ path: testInfo.outputPath("reset-prefilled-390.png") });
  await submit.click();
  await expect(page.getByText("Ihr Passwort wurde erfolgreich zurückgesetzt.")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/login\?notice=reset/, { timeout: 8000 });
  await loginAs(page, { username: admin.username, password: newPassword });
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
});
