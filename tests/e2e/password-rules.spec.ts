import type { Page } from "@playwright/test";
import { signIn } from "./auth";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";

// Passwords (ADR 263): every form that sets one names the rule the server enforces (12
// characters, not guessable), the reset page's indicator asks the server instead of counting
// characters, each message appears only where it applies, and a login with JS that gets no
// answer in 15 s says so in the spec's words. At 390 and 1280 px, with and without JS.
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
const RULE = "Mindestens 12 Zeichen und schwer zu erraten";
const unique = () => Math.random().toString(36).slice(2, 8);

async function apiToken(page: Page, admin: { username: string; password: string }) {
  const res = await page.request.post("/api/admin/auth/login", { data: admin });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

/** A reset link for `email` through "Passwort vergessen?" (the stack's SMTP inbox). */
async function resetLink(page: Page, email: string) {
  await page.goto("/admin/forgot-password");
  await page.getByLabel("E-Mail-Adresse").fill(email);
  await page.getByRole("button", { name: "Link senden" }).click();
  const mail = await waitForMail(email, /Passwort zurücksetzen/);
  const link = mail.text.match(/https?:\/\/\S+\/admin\/reset-password\?token=\S+/)?.[0];
  if (!link) throw new Error("no reset link in the mail");
  return new URL(link).pathname + new URL(link).search;
}

for (const size of SIZES) {
  test(`registration, password change and reset name the enforced rule (${size.width})`, async ({
    page,
    seed,
  }) => {
    await page.setViewportSize(size);
    const admin = await seed.admin();
    const invited = await page.request.post("/api/admin/invite", {
      headers: { authorization: `Bearer ${await apiToken(page, admin)}` },
      data: { email: `neu-${unique()}@example.com` },
    });
    expect(invited.status()).toBe(201);
    const { invitationToken } = (await invited.json()) as { invitationToken: string };
    await page.goto(`/admin/register?token=${encodeURIComponent(invitationToken)}`);
    const registerPassword = page.getByLabel("Passwort", { exact: true });
    await expect(registerPassword).toHaveAccessibleDescription(new RegExp(RULE));
    await expect(page.getByText("Mindestens 6 Zeichen")).toHaveCount(0);

    await signIn(page, admin, { to: "/admin/change-password" });
    await expect(page.getByLabel("Neues Passwort", { exact: true })).toHaveAccessibleDescription(
      new RegExp(RULE),
    );
    const tips = page.getByRole("heading", { name: "Sicherheitstipps" }).locator("..");
    await expect(tips).toContainText("mindestens 12 Zeichen");
    await expect(tips).not.toContainText("8 Zeichen");

    await page.context().clearCookies();
    await page.goto(await resetLink(page, admin.email));
    await expect(page.getByLabel("Neues Passwort", { exact: true })).toHaveAccessibleDescription(
      new RegExp(RULE),
    );
  });

  test(`an empty password change asks for each field, never "stimmt nicht überein" (${size.width})`, async ({
    page,
    seed,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize(size);
    await signIn(page, await seed.admin(), { to: "/admin/change-password" });
    if (javaScriptEnabled) await waitForHydration(page);
    // The browser's own `required` check would stop an empty post first: the form is sent as
    // a visitor whose browser does not check (the server's and Conform's answers are tested).
    await page
      .locator("form")
      .filter({ has: page.getByLabel("Aktuelles Passwort") })
      .evaluate((f) => {
        (f as HTMLFormElement).noValidate = true;
      });
    await page.getByRole("button", { name: "Passwort ändern" }).click();
    await expect(page.getByText("Aktuelles Passwort ist erforderlich")).toBeVisible();
    await expect(page.getByText("Neues Passwort ist erforderlich")).toBeVisible();
    await expect(page.getByText("Bitte bestätigen Sie das neue Passwort.")).toBeVisible();
    await expect(page.getByText("Passwort-Bestätigung stimmt nicht überein")).toHaveCount(0);
    await expect(page.getByLabel("Aktuelles Passwort")).toBeFocused();
    // A confirmation that differs is named as such.
    await page.getByLabel("Aktuelles Passwort").fill("irgendwas");
    await page.getByLabel("Neues Passwort", { exact: true }).fill("Wolke-Lampe-Fahrrad-91");
    await page.getByLabel("Neues Passwort bestätigen").fill("Wolke-Lampe-Fahrrad-92");
    await page.getByRole("button", { name: "Passwort ändern" }).click();
    await expect(page.getByText("Passwort-Bestätigung stimmt nicht überein")).toBeVisible();
  });

  test(`the reset page's indicator is the server's verdict: aaaaaaaaaaaaaa is not "Stark" (${size.width}) @js-only`, async ({
    page,
    seed,
  }, testInfo) => {
    await page.setViewportSize(size);
    const admin = await seed.admin();
    await page.goto(await resetLink(page, admin.email));
    await waitForHydration(page);
    const password = page.getByLabel("Neues Passwort", { exact: true });
    const indicator = page.getByTestId("password-strength");
    const submit = page.getByRole("button", { name: "Passwort zurücksetzen" });
    await password.fill("aaaaaaaaaaa");
    await expect(indicator).toHaveText("Passwortstärke: Zu kurz");
    await password.fill("aaaaaaaaaaaaaa");
    await page.getByLabel("Passwort bestätigen").fill("aaaaaaaaaaaaaa");
    await expect(indicator).toHaveText("Passwortstärke: Zu schwach");
    // zxcvbn's German feedback beside it, and the button waits for a better one.
    await expect(page.getByText("Dieses Passwort ist zu leicht zu erraten.")).toBeVisible();
    await expect(submit).toBeDisabled();
    await page.screenshot({ path: testInfo.outputPath(`reset-weak-${size.width}.png`) });
    const strong = `Wolke-Lampe-${unique()}-Fahrrad`;
    await password.fill(strong);
    await page.getByLabel("Passwort bestätigen").fill(strong);
    await expect(indicator).toHaveText("Passwortstärke: Stark");
    await expect(submit).toBeEnabled();
  });

  test(`a login with no answer in 15 s says "Login-Timeout: Server antwortet nicht rechtzeitig" (${size.width}) @js-only`, async ({
    page,
    seed,
  }) => {
    await page.setViewportSize(size);
    const admin = await seed.admin();
    await page.clock.install();
    await page.goto("/admin/login");
    await waitForHydration(page);
    // The server never answers the login post.
    let held = false;
    await page.route(/\/admin\/login\.data/, (route) => {
      if (route.request().method() === "POST") {
        held = true;
        return; // never fulfilled
      }
      return route.continue();
    });
    await page.getByLabel("Benutzername").fill(admin.username);
    await page.getByLabel("Passwort", { exact: true }).fill(admin.password);
    await page.getByRole("button", { name: "Anmelden" }).click();
    await expect(page.getByRole("button", { name: "Anmeldung läuft..." })).toBeVisible();
    await expect.poll(() => held).toBe(true);
    await page.clock.runFor(15_000);
    const timeout = page.getByRole("alert").filter({
      hasText: "Login-Timeout: Server antwortet nicht rechtzeitig",
    });
    await expect(timeout).toBeInViewport();
    // The form is usable again: the next attempt goes through.
    await page.unroute(/\/admin\/login\.data/);
    await page.getByLabel("Passwort", { exact: true }).fill(admin.password);
    await page.getByRole("button", { name: "Anmelden" }).click();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });
}
