import type { Page } from "@playwright/test";
import { generateSync } from "otplib";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// ADR 256: the TOTP second factor, with and without JavaScript (both projects run this spec).
// The test reads the secret from the page like a user typing it into an app, and computes the
// codes with otplib.
test.use({ viewport: { width: 390, height: 844 } });
test.describe.configure({ timeout: 120_000 });

async function ready(page: Page, javaScript: boolean) {
  if (javaScript) await waitForHydration(page);
}

/** axe runs as a script inside the page: only in the js-on project (the markup is the same). */
async function axeClean(page: Page, label: string, javaScript: boolean) {
  if (!javaScript) return;
  const results = await axeOn(page).analyze();
  expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

/** A six-digit code that is none of the codes the app shows around now. */
function wrongCode(secret: string) {
  const now = Math.floor(Date.now() / 1000);
  const valid = [-60, -30, 0, 30, 60].map((d) => generateSync({ secret, epoch: now + d }));
  let code = 123456;
  while (valid.includes(String(code))) code += 1;
  return String(code);
}

async function passwordStep(page: Page, admin: { username: string; password: string }) {
  await page.goto("/admin/login");
  await page.getByLabel("Benutzername").fill(admin.username);
  await page.getByLabel("Passwort", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Anmelden" }).click();
}

test("enrol, then log in with a code and with a recovery code", async ({
  page,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  const js = javaScriptEnabled !== false;
  const admin = await seed.admin();
  await passwordStep(page, admin);
  await expect(page).not.toHaveURL(/\/admin\/login/);

  // Enrol in "Sicherheit": password → QR code and secret → a code → 10 recovery codes.
  await page.goto("/admin/account#sicherheit");
  await ready(page, js);
  const section = page.getByRole("region", { name: "Sicherheit" });
  await section.getByLabel("Aktuelles Passwort").fill(admin.password);
  await section.getByRole("button", { name: "Zwei-Faktor-Anmeldung einrichten" }).click();
  const qr = section.getByRole("img", { name: "QR-Code für die Authenticator-App" });
  await expect(qr).toBeVisible();
  await expect(qr.locator("svg")).toBeVisible();
  const secret = ((await section.getByTestId("totp-secret").textContent()) ?? "").trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  // The new step takes the focus (newcomer walkthrough): not dropped to <body>.
  await expect(page.locator(":focus")).toContainText("Scannen Sie den QR-Code");
  await page.screenshot({ path: testInfo.outputPath("enrol-qr.png"), fullPage: true });
  await axeClean(page, "Sicherheit (Einrichtung)", js);
  // A mistyped code (newcomer walkthrough): the error under the field is in view — not 1,600 px
  // below the top of a reloaded page — and, with JavaScript, the field has the focus again.
  await section.getByLabel("Code aus der App").fill(wrongCode(secret));
  await section.getByRole("button", { name: "Bestätigen und einschalten" }).click();
  const wrong = section.getByText("Der Code ist ungültig oder wurde bereits verwendet.");
  await expect(wrong).toBeInViewport();
  if (js) await expect(section.getByLabel("Code aus der App")).toBeFocused();
  await page.screenshot({ path: testInfo.outputPath("enrol-wrong-code.png") });
  await section.getByLabel("Code aus der App").fill(generateSync({ secret }));
  await section.getByRole("button", { name: "Bestätigen und einschalten" }).click();
  await expect(
    section.getByRole("status").filter({ hasText: "Die Zwei-Faktor-Anmeldung ist eingeschaltet." }),
  ).toBeVisible();
  const codes = section
    .getByRole("list", { name: "Wiederherstellungscodes" })
    .getByRole("listitem");
  await expect(codes).toHaveCount(10);
  // The codes take the focus; "eingeschaltet" is said once; the codes can be downloaded.
  await expect(page.locator(":focus")).toContainText("Ihre Wiederherstellungscodes");
  await expect(section.getByText("Die Zwei-Faktor-Anmeldung ist eingeschaltet")).toHaveCount(1);
  await expect(section.getByRole("link", { name: "Codes herunterladen" })).toHaveAttribute(
    "download",
    "wiederherstellungscodes.txt",
  );
  await codes.first().scrollIntoViewIfNeeded();
  await expect(codes.first()).toBeInViewport();
  const recoveryCode = ((await codes.first().textContent()) ?? "").trim();
  expect(recoveryCode).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}$/);
  await page.screenshot({ path: testInfo.outputPath("recovery-codes.png"), fullPage: true });
  await axeClean(page, "Sicherheit (Codes)", js);

  // Log out, log in: the password leads to the code step, focused on its one field. (The header's
  // button: the section's session list has its own "Abmelden" buttons.)
  await page.locator("header").getByRole("button", { name: "Abmelden" }).click();
  await expect(page).toHaveURL(/\/admin\/login/);
  await ready(page, js);
  await passwordStep(page, admin);
  const codeField = page.getByLabel("Bestätigungscode");
  await expect(codeField).toBeFocused();
  await expect(page).toHaveURL(/\/admin\/login/);
  await axeClean(page, "Code-Schritt", js);
  // A wrong code: the step stays, the error is announced.
  await codeField.fill("000000");
  await page.getByRole("button", { name: "Bestätigen" }).click();
  await expect(page.getByText("Der Code ist ungültig oder wurde bereits verwendet.")).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("code-step-error.png") });
  // The code of the next time step (the enrolment used the current one; each code works once).
  const next = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
  await page.getByLabel("Bestätigungscode").fill(next);
  await page.getByRole("button", { name: "Bestätigen" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  await expect(page.getByText(`Willkommen, ${admin.username}`)).toBeInViewport();

  // Log out again and in with a recovery code instead of the app.
  await page.getByRole("button", { name: "Abmelden" }).click();
  await expect(page).toHaveURL(/\/admin\/login/);
  await ready(page, js);
  await passwordStep(page, admin);
  await expect(page.getByLabel("Bestätigungscode")).toBeFocused();
  await page.getByLabel("Bestätigungscode").fill(recoveryCode);
  await page.getByRole("button", { name: "Bestätigen" }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);

  // The section now shows it on, with one recovery code used.
  await page.goto("/admin/account#sicherheit");
  await expect(
    page
      .getByRole("region", { name: "Sicherheit" })
      .getByText("Unbenutzte Wiederherstellungscodes: 9 von 10."),
  ).toBeVisible();
  await axeClean(page, "Sicherheit (eingeschaltet)", js);
});

test("the rule for all admins: found from the settings page, switched on the account page", async ({
  page,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  const js = javaScriptEnabled !== false;
  const admin = await seed.admin();
  await passwordStep(page, admin);
  await expect(page).not.toHaveURL(/\/admin\/login/);
  // A newcomer looks among the settings first: a pointer with the rule's state and the way there.
  await page.goto("/admin/settings");
  await ready(page, js);
  const pointer = page.getByRole("region", { name: "Anmelde-Sicherheit" });
  await expect(pointer).toContainText("Zwei-Faktor-Anmeldung für alle Admins: nicht verlangt.");
  await axeClean(page, "Einstellungen", js);
  await pointer.getByRole("link", { name: "In Ihrem Konto unter „Sicherheit“ ändern" }).click();
  await expect(page).toHaveURL(/\/admin\/account#zwei-faktor-regel$/);
  const box = page.getByLabel("Zwei-Faktor-Anmeldung für alle Admins verlangen");
  await expect(box).toBeInViewport();
  await expect(box).not.toBeChecked();
  await page.screenshot({ path: testInfo.outputPath("rule-from-settings.png") });
});

test("an admin held at the enrolment cannot switch the rule off, and the box says so", async ({
  page,
  seed,
  javaScriptEnabled,
}) => {
  const js = javaScriptEnabled !== false;
  seed.configuration({ security: { requireTwoFactor: true } });
  const held = await seed.admin();
  await passwordStep(page, held);
  await expect(page).toHaveURL(/\/admin\/account/);
  await ready(page, js);
  const box = page.getByLabel("Zwei-Faktor-Anmeldung für alle Admins verlangen");
  await expect(box).toBeChecked();
  await box.uncheck();
  await page.getByRole("button", { name: "Regel speichern" }).click();
  await expect(
    page.getByText("Bitte richten Sie zuerst die Zwei-Faktor-Anmeldung ein").first(),
  ).toBeVisible();
  // Refused by the server: the box shows the stored rule again (it stayed unticked with JS).
  await expect(box).toBeChecked();
});
