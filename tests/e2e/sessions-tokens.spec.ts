import type { Page } from "@playwright/test";
import { loginAs } from "./auth";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// ADRs 260, 261: the admin's sessions ("Sicherheit") and API tokens ("API-Zugänge") on /admin/account,
// with and without JavaScript (both projects run this spec).
test.use({ viewport: { width: 390, height: 844 } });
test.describe.configure({ timeout: 120_000 });

async function axeClean(page: Page, label: string, javaScript: boolean) {
  if (!javaScript) return;
  const results = await axeOn(page).include("#sicherheit").include("#api-zugaenge").analyze();
  expect(results.violations.map((v) => `${label}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
}

/** A full load of the account page (a goto to the same URL with a new fragment would not reload). */
async function openAccount(page: Page, js: boolean) {
  await page.goto("/admin/account");
  if (js) await waitForHydration(page);
}

test("end another session from this device, one by one and all others", async ({
  page,
  browser,
  baseURL,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  const js = javaScriptEnabled !== false;
  const admin = await seed.admin();
  await loginAs(page, admin);
  // A second browser (another device) logged in as the same admin.
  const other = await browser.newContext({ baseURL, javaScriptEnabled: js });
  const phone = await other.newPage();
  await loginAs(phone, admin);

  await openAccount(page, js);
  const section = page.getByRole("region", { name: "Sicherheit" });
  const sessions = section.getByTestId("session");
  await expect(sessions).toHaveCount(2);
  await expect(sessions.first()).toContainText("dieses Gerät");
  await expect(sessions.first()).toContainText("Chrome auf Linux");
  await expect(sessions.first()).toContainText("Netz 127.0.0.0/24");
  await expect(sessions.nth(1)).not.toContainText("dieses Gerät");
  await sessions.nth(1).scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("sessions.png"), fullPage: true });
  await axeClean(page, "Sitzungen", js);

  await sessions
    .nth(1)
    .getByRole("button", { name: /^Abmelden/ })
    .click();
  const done = section.getByRole("status").filter({ hasText: "Die Sitzung wurde abgemeldet." });
  await expect(done).toBeInViewport();
  // The row and its button are gone: the answer takes the focus.
  await expect(page.locator(":focus")).toContainText("Die Sitzung wurde abgemeldet.");
  await page.screenshot({ path: testInfo.outputPath("session-ended.png") });
  await expect(sessions).toHaveCount(1);
  // The other device is out at once: its next page is the login.
  await phone.goto("/admin/dashboard");
  await expect(phone).toHaveURL(/\/admin\/login/);

  // Two more devices, then "Alle anderen abmelden".
  await loginAs(phone, admin);
  const third = await other.browser()?.newContext({ baseURL, javaScriptEnabled: js });
  const tablet = await third!.newPage();
  await loginAs(tablet, admin);
  await openAccount(page, js);
  await expect(sessions).toHaveCount(3);
  await section.getByRole("button", { name: "Alle anderen abmelden" }).click();
  await expect(
    section.getByRole("status").filter({ hasText: "2 andere Sitzungen wurden abgemeldet." }),
  ).toBeInViewport();
  await expect(sessions).toHaveCount(1);
  for (const device of [phone, tablet]) {
    await device.goto("/admin/dashboard");
    await expect(device).toHaveURL(/\/admin\/login/);
  }
  // This device stays logged in.
  await page.goto("/admin/dashboard");
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  await other.close();
  await third!.close();
});

test("create an API token, use it, revoke it", async ({
  page,
  request,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  const js = javaScriptEnabled !== false;
  const admin = await seed.admin();
  await loginAs(page, admin);
  await openAccount(page, js);
  const section = page.getByRole("region", { name: "API-Zugänge" });
  await expect(section.getByText("Noch keine API-Zugänge.")).toBeVisible();
  await axeClean(page, "API-Zugänge (leer)", js);

  // Without a scope: the German error, nothing created.
  await section.getByLabel("Name").fill("n8n");
  await section.getByLabel("Aktuelles Passwort").fill(admin.password);
  await section.getByRole("button", { name: "API-Zugang erstellen" }).click();
  await expect(
    section.getByText("Bitte wählen Sie mindestens eine Berechtigung."),
  ).toBeInViewport();

  await section.getByLabel("Name").fill("n8n");
  await section.getByRole("checkbox", { name: /requests:read/ }).check();
  await section.getByLabel("Gültigkeit").selectOption("30");
  await section.getByLabel("Aktuelles Passwort").fill(admin.password);
  await section.getByRole("button", { name: "API-Zugang erstellen" }).click();
  await expect(
    section.getByRole("status").filter({ hasText: "API-Zugang erstellt." }),
  ).toBeInViewport();
  const shown = section.getByTestId("api-token");
  await expect(shown).toBeInViewport();
  // With JavaScript the new key takes the focus (newcomer walkthrough: it dropped to <body>).
  if (js) await expect(page.locator(":focus")).toContainText("Schlüssel für „n8n“");
  await page.screenshot({ path: testInfo.outputPath("api-token-shown.png") });
  const token = ((await shown.textContent()) ?? "").trim();
  expect(token).toMatch(/^apt_/);
  // The form is empty again, the expiry back on "Ohne Ablaufdatum".
  await expect(section.getByLabel("Gültigkeit").locator("option:checked")).toHaveText(
    "Ohne Ablaufdatum",
  );
  const row = section.getByTestId("api-token-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("requests:read");
  await expect(row).toContainText("Noch nicht benutzt");
  await page.screenshot({ path: testInfo.outputPath("api-token-created.png"), fullPage: true });
  await axeClean(page, "API-Zugänge (erstellt)", js);

  // The integration's calls: within the scope yes, outside it 403, never a page or the account.
  const auth = { authorization: `Bearer ${token}` };
  const list = await request.get("/api/admin/requests", { headers: auth });
  expect(list.status()).toBe(200);
  const write = await request.post("/api/admin/requests/1/assign", { headers: auth, data: {} });
  expect(write.status()).toBe(403);
  expect((await write.json()).error).toContain("requests:write");
  const account = await request.get("/api/admin/account", { headers: auth });
  expect(account.status()).toBe(401);
  const dashboard = await request.get("/admin/dashboard", { headers: auth, maxRedirects: 0 });
  expect(dashboard.status()).toBe(401);

  // The list shows when it was last used; revoking ends it at once.
  await openAccount(page, js);
  await expect(row).toContainText("Zuletzt benutzt");
  await expect(section.getByTestId("api-token")).toHaveCount(0);
  await row.getByRole("button", { name: "Widerrufen (n8n)" }).click();
  // It asks first: the confirm modal with JavaScript, a confirmation step in view without it.
  if (js) {
    const dialog = page.getByRole("alertdialog", { name: "API-Zugang widerrufen" });
    await expect(dialog).toContainText("„n8n“ widerrufen?");
    await dialog.getByRole("button", { name: "Widerrufen" }).click();
  } else {
    const step = page.getByRole("region", { name: "API-Zugang widerrufen" });
    await expect(step).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath("api-token-revoke-step.png") });
    await step.getByRole("button", { name: "Widerrufen" }).click();
  }
  const revoked = section
    .getByRole("status")
    .filter({ hasText: "Der API-Zugang „n8n“ wurde widerrufen." });
  await expect(revoked).toBeInViewport();
  if (js) await expect(page.locator(":focus")).toContainText("wurde widerrufen");
  await page.screenshot({ path: testInfo.outputPath("api-token-revoked.png") });
  await expect(row).toContainText("widerrufen");
  const refused = await request.get("/api/admin/requests", { headers: auth });
  expect(refused.status()).toBe(401);
});
