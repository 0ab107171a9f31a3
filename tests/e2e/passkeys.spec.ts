import type { Page } from "@playwright/test";
import { generateSync } from "otplib";
import { db } from "~/server/platform/db.server";
import { passkeys } from "~db/schema";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// ADR 280: passkeys. With JavaScript, Chromium's virtual authenticator (DevTools
// protocol `WebAuthn`) stands in for the phone or laptop; the e2e server's APP_URL is
// http://localhost:<port>, so the relying-party ID is `localhost` (WebAuthn refuses IP addresses).
// Without JavaScript the passkey buttons are absent and password + TOTP is the way in.
test.describe.configure({ timeout: 120_000 });

async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

async function passwordStep(page: Page, admin: { username: string; password: string }) {
  await page.goto("/admin/login");
  await page.getByLabel("Benutzername").fill(admin.username);
  await page.getByLabel("Passwort", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Anmelden", exact: true }).click();
}

async function logOut(page: Page) {
  await page.locator("header").getByRole("button", { name: "Abmelden" }).click();
  await expect(page).toHaveURL(/\/admin\/login/);
}

async function axeClean(page: Page, label: string) {
  const results = await axeOn(page).analyze();
  expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`register a passkey, then log in with password + passkey and with the passkey alone (${viewport.width}) @js-only`, async ({
    page,
    seed,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    await virtualAuthenticator(page);
    const admin = await seed.admin();
    await passwordStep(page, admin);
    await expect(page).toHaveURL(/\/admin\/dashboard/);

    await page.goto("/admin/account#sicherheit");
    await waitForHydration(page);
    const section = page.getByRole("region", { name: "Sicherheit" });
    await expect(section.getByText("Noch kein Passkey eingerichtet.")).toBeVisible();
    await section.getByText("Passkey hinzufügen", { exact: true }).click();
    const add = section.locator("form", { has: page.getByLabel("Name des Passkeys") });
    await add.getByLabel("Name des Passkeys").fill("Laptop");
    await add.getByLabel("Aktuelles Passwort").fill(admin.password);
    await add.getByRole("button", { name: "Passkey speichern" }).click();
    const added = section.getByRole("status").filter({ hasText: "„Laptop“ wurde hinzugefügt" });
    await expect(added).toBeVisible();
    await expect(added).toBeInViewport();
    const item = section.getByTestId("passkey");
    await expect(item).toHaveCount(1);
    await expect(item).toContainText("Laptop");
    await expect(item).toContainText("Zuletzt verwendet noch nie");
    await expect(section.getByLabel("Passkey statt Passwort erlauben")).toBeChecked();
    await item.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`passkey-added-${viewport.width}.png`) });
    await axeClean(page, "Sicherheit (Passkey)");

    // Password, then the passkey instead of a code.
    await logOut(page);
    await passwordStep(page, admin);
    const confirm = page.getByRole("button", { name: "Mit Passkey bestätigen" });
    await expect(confirm).toBeVisible();
    // A passkey only: no code field to type into.
    await expect(page.getByLabel("Bestätigungscode")).toHaveCount(0);
    await page.screenshot({ path: testInfo.outputPath(`code-step-passkey-${viewport.width}.png`) });
    await axeClean(page, "Code-Schritt (Passkey)");
    await confirm.click();
    await expect(page).toHaveURL(/\/admin\/dashboard/);
    await expect(page.getByText(`Willkommen, ${admin.username}`)).toBeInViewport();

    // The passkey alone (no name, no password).
    await logOut(page);
    await waitForHydration(page);
    const instead = page.getByRole("button", { name: "Mit Passkey anmelden" });
    await expect(instead).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`login-passkey-${viewport.width}.png`) });
    await axeClean(page, "Login (Passkey)");
    await instead.click();
    await expect(page).toHaveURL(/\/admin\/dashboard/);
    await expect(page.getByText(`Willkommen, ${admin.username}`)).toBeInViewport();

    // Remove it with the password: the section says so; the list is empty again.
    await page.goto("/admin/account#sicherheit");
    await waitForHydration(page);
    await expect(section.getByTestId("passkey")).toContainText(/Zuletzt verwendet \d/);
    await section.getByText("Entfernen", { exact: false }).first().click();
    await section.getByTestId("passkey").getByLabel("Aktuelles Passwort").fill(admin.password);
    await section.getByRole("button", { name: "Passkey entfernen (Laptop)" }).click();
    const removed = section.getByRole("status").filter({ hasText: "„Laptop“ wurde entfernt" });
    await expect(removed).toBeVisible();
    await expect(page.locator(":focus")).toContainText("„Laptop“ wurde entfernt");
    await expect(section.getByTestId("passkey")).toHaveCount(0);
  });
}

test("the passkey button's arrival moves nothing on the login page @js-only", async ({
  page,
  browser,
  baseURL,
  seed,
}) => {
  // The card is centred: a button appearing under it at hydration lifted "Anmelden" by 31 px
  // between a press and its release (the full run's failure). Its place is kept while the script loads.
  const admin = await seed.admin();
  db()
    .insert(passkeys)
    .values({ adminId: admin.id, credentialId: `e2e-${admin.id}`, publicKey: "AA", name: "Laptop" })
    .run();
  const loading = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const before = await loading.newPage();
  await before.route("**/*.js", (route) => route.abort());
  await before.goto(`${baseURL}/admin/login`);
  const unhydrated = await before
    .getByRole("button", { name: "Anmelden", exact: true })
    .boundingBox();
  await loading.close();

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/admin/login");
  await waitForHydration(page);
  await expect(page.getByRole("button", { name: "Mit Passkey anmelden" })).toBeVisible();
  const hydrated = await page.getByRole("button", { name: "Anmelden", exact: true }).boundingBox();
  expect(hydrated).toEqual(unhydrated);
});

test("without JavaScript: no passkey buttons; password + TOTP still logs in @no-js-only", async ({
  page,
  seed,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const admin = await seed.admin();
  await passwordStep(page, admin);
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  // Enrol TOTP (the no-JS way), then give the admin a passkey (made elsewhere, with JavaScript).
  await page.goto("/admin/account#sicherheit");
  const section = page.getByRole("region", { name: "Sicherheit" });
  await section.getByLabel("Aktuelles Passwort").first().fill(admin.password);
  await section.getByRole("button", { name: "Zwei-Faktor-Anmeldung einrichten" }).click();
  const secret = ((await section.getByTestId("totp-secret").textContent()) ?? "").trim();
  await section.getByLabel("Code aus der App").fill(generateSync({ secret }));
  await section.getByRole("button", { name: "Bestätigen und einschalten" }).click();
  await expect(section.getByRole("list", { name: "Wiederherstellungscodes" })).toBeVisible();
  db()
    .insert(passkeys)
    .values({
      adminId: admin.id,
      credentialId: `e2e-${admin.id}`,
      publicKey: "AA",
      name: "Telefon",
    })
    .run();
  // A fresh load (not only a jump to the section's fragment on the page already shown).
  await page.goto("/admin/account");
  await expect(section.getByTestId("passkey")).toContainText("Telefon");
  await expect(
    section.getByText("Zum Hinzufügen eines Passkeys braucht der Browser JavaScript."),
  ).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath("passkeys-no-js.png"), fullPage: true });

  await logOut(page);
  // A passkey exists and may replace the password, yet without JavaScript nothing offers it.
  await expect(page.getByRole("button", { name: "Mit Passkey anmelden" })).toHaveCount(0);
  await passwordStep(page, admin);
  await expect(page.getByLabel("Bestätigungscode")).toBeFocused();
  await expect(page.getByRole("button", { name: "Mit Passkey bestätigen" })).toHaveCount(0);
  const next = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
  await page.getByLabel("Bestätigungscode").fill(next);
  await page.getByRole("button", { name: "Bestätigen", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
});
