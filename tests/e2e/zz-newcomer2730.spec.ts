// SCRATCH walkthrough of issues 27 and 30 by a newcomer (helper newcomer2730). NOT TO BE MERGED.
// It records what a newcomer sees (screenshots at 390 and 1280, axe, horizontal overflow) and
// uses soft assertions so the walk goes on past a problem.
import fs from "node:fs";
import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { generateSync } from "otplib";
import { loginAs } from "./auth";
import { currentStack, expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";
import { adminExtras, seedRequest } from "./seed";

test.describe.configure({ timeout: 240_000 });

const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

const OUT = "/tmp/newcomer2730";
fs.mkdirSync(OUT, { recursive: true });

function log(testInfo: TestInfo, line: string) {
  const js = testInfo.project.name;
  fs.appendFileSync(`${OUT}/findings.txt`, `[${js}] ${line}\n`);
}

/** Screenshots at both sizes, overflow check and axe (JS on only) for the current page. */
async function look(page: Page, testInfo: TestInfo, name: string, js: boolean) {
  const before = page.viewportSize();
  for (const size of SIZES) {
    await page.setViewportSize(size);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    if (overflow > 1) log(testInfo, `${name} @${size.width}: horizontal overflow ${overflow}px`);
    const path = `${OUT}/${testInfo.project.name}-${name}-${size.width}.png`;
    // At 390: what the user sees right now (the viewport); at 1280: the whole page.
    await page.screenshot({ path, fullPage: size.width > 400 });
  }
  if (before) await page.setViewportSize(before);
  if (js) {
    const axe = await new AxeBuilder({ page }).analyze();
    for (const v of axe.violations) {
      log(
        testInfo,
        `${name}: axe ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target).join(" | ")}`,
      );
    }
  }
}

async function passwordStep(page: Page, admin: { username: string; password: string }, base = "") {
  await page.goto(`${base}/admin/login`);
  await page.getByLabel("Benutzername").fill(admin.username);
  await page.getByLabel("Passwort", { exact: true }).fill(admin.password);
  await page.getByRole("button", { name: "Anmelden", exact: true }).click();
}

async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el ? `${el.tagName} ${(el.textContent ?? "").trim().slice(0, 60)}` : "none";
  });
}

test("1: Sicherheit — 2FA, recovery, sessions, API token", async ({
  page,
  browser,
  baseURL,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  const js = javaScriptEnabled !== false;
  await page.setViewportSize(SIZES[0]);
  const admin = await seed.admin();
  await loginAs(page, admin);
  await page.goto("/admin/account");
  if (js) await waitForHydration(page);
  await look(page, testInfo, "01-account", js);

  const section = page.getByRole("region", { name: "Sicherheit" });
  await section.getByLabel("Aktuelles Passwort").first().fill(admin.password);
  await section.getByRole("button", { name: "Zwei-Faktor-Anmeldung einrichten" }).click();
  const secret = ((await section.getByTestId("totp-secret").textContent()) ?? "").trim();
  log(testInfo, `after setup focus: ${await focused(page)}`);
  await look(page, testInfo, "02-enrol-qr", js);
  // A wrong code first, like a newcomer mistyping.
  await section.getByLabel("Code aus der App").fill("123456");
  await section.getByRole("button", { name: "Bestätigen und einschalten" }).click();
  await page.waitForLoadState("networkidle");
  log(testInfo, `after wrong enrol code focus: ${await focused(page)}`);
  await look(page, testInfo, "03-enrol-wrong", js);
  await section.getByLabel("Code aus der App").fill(generateSync({ secret }));
  await section.getByRole("button", { name: "Bestätigen und einschalten" }).click();
  const codes = section
    .getByRole("list", { name: "Wiederherstellungscodes" })
    .getByRole("listitem");
  await expect(codes).toHaveCount(10);
  const recovery = ((await codes.first().textContent()) ?? "").trim();
  const recovery2 = ((await codes.nth(1).textContent()) ?? "").trim();
  await look(page, testInfo, "04-recovery", js);
  // Reload: are the codes gone (shown once)?
  await page.goto("/admin/account");
  if (js) await waitForHydration(page);
  await expect.soft(section.getByRole("list", { name: "Wiederherstellungscodes" })).toHaveCount(0);
  await look(page, testInfo, "05-2fa-on", js);

  await page.locator("header").getByRole("button", { name: "Abmelden" }).click();
  await expect(page).toHaveURL(/\/admin\/login/);
  if (js) await waitForHydration(page);
  await passwordStep(page, admin);
  await expect(page.getByLabel("Bestätigungscode")).toBeVisible();
  await look(page, testInfo, "06-code-step", js);
  const next = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
  await page.getByLabel("Bestätigungscode").fill(next);
  await page.getByRole("button", { name: "Bestätigen", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  await page.locator("header").getByRole("button", { name: "Abmelden" }).click();
  if (js) await waitForHydration(page);
  await passwordStep(page, admin);
  await page.getByLabel("Bestätigungscode").fill(recovery);
  await page.getByRole("button", { name: "Bestätigen", exact: true }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard/);
  await look(page, testInfo, "07-dashboard-after-recovery", js);

  // Another device: its session in the list, "Abmelden" for it.
  const other = await browser.newContext({ baseURL, javaScriptEnabled: js });
  const phone = await other.newPage();
  await passwordStep(phone, admin);
  await phone.getByLabel("Bestätigungscode").fill(recovery2);
  await phone.getByRole("button", { name: "Bestätigen", exact: true }).click();
  await expect(phone).toHaveURL(/\/admin\/dashboard/);
  await page.goto("/admin/account#sicherheit");
  if (js) await waitForHydration(page);
  const sessions = section.getByTestId("session");
  await expect.soft(sessions).toHaveCount(2);
  await look(page, testInfo, "08-sessions", js);
  await sessions
    .nth(1)
    .getByRole("button", { name: /^Abmelden/ })
    .click();
  await expect
    .soft(section.getByRole("status").filter({ hasText: "Die Sitzung wurde abgemeldet." }))
    .toBeVisible();
  log(testInfo, `after session end focus: ${await focused(page)}`);
  await look(page, testInfo, "09-session-ended", js);
  await other.close();

  // API-Zugänge: a read-only token.
  const api = page.getByRole("region", { name: "API-Zugänge" });
  await api.getByLabel("Name").fill("CRM lesen");
  await api.getByRole("checkbox", { name: /requests:read/ }).check();
  await api.getByLabel("Aktuelles Passwort").fill(admin.password);
  await api.getByRole("button", { name: "API-Zugang erstellen" }).click();
  const shown = api.getByTestId("api-token");
  await expect(shown).toBeVisible();
  log(testInfo, `after token create focus: ${await focused(page)}`);
  await shown.scrollIntoViewIfNeeded();
  await look(page, testInfo, "10-token-shown", js);
  const token = ((await shown.textContent()) ?? "").trim();
  const list = await page.request.get("/api/admin/requests", {
    headers: { authorization: `Bearer ${token}` },
  });
  expect.soft(list.status()).toBe(200);
  await page.goto("/admin/account");
  if (js) await waitForHydration(page);
  await expect.soft(api.getByTestId("api-token")).toHaveCount(0);
  await api.getByRole("button", { name: "Widerrufen (CRM lesen)" }).click();
  await expect.soft(api.getByRole("status").filter({ hasText: "widerrufen" })).toBeVisible();
  log(testInfo, `after revoke focus: ${await focused(page)}`);
  await look(page, testInfo, "11-token-revoked", js);
});

test("2: require 2FA for all admins → another admin is led to enrolment", async ({
  page,
  browser,
  baseURL,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  const js = javaScriptEnabled !== false;
  await page.setViewportSize(SIZES[0]);
  seed.configuration({});
  const admin = await seed.admin();
  const colleague = await seed.admin();
  await loginAs(page, admin);
  // A newcomer looks on the settings page first.
  await page.goto("/admin/settings");
  if (js) await waitForHydration(page);
  const onSettings = await page
    .getByText("Zwei-Faktor-Anmeldung für alle Admins verlangen")
    .count();
  log(testInfo, `require-2FA switch on /admin/settings: ${onSettings}`);
  await look(page, testInfo, "20-settings", js);
  await page.goto("/admin/account#sicherheit");
  if (js) await waitForHydration(page);
  const box = page.getByLabel("Zwei-Faktor-Anmeldung für alle Admins verlangen");
  await box.check();
  await page.getByRole("button", { name: "Regel speichern" }).click();
  await page.waitForLoadState("networkidle");
  log(testInfo, `after Regel speichern focus: ${await focused(page)}`);
  await look(page, testInfo, "21-rule-saved", js);

  const other = await browser.newContext({ baseURL, javaScriptEnabled: js });
  const p2 = await other.newPage();
  await p2.setViewportSize(SIZES[0]);
  await passwordStep(p2, colleague);
  await p2.waitForLoadState("networkidle");
  log(testInfo, `colleague after password: ${p2.url()} focus ${await focused(p2)}`);
  await look(p2, testInfo, "22-colleague-enrol", js);
  // Try to escape to the requests list.
  await p2.goto("/admin/requests");
  log(testInfo, `colleague goto /admin/requests → ${p2.url()}`);
  await look(p2, testInfo, "23-colleague-escape", js);
  await other.close();
  // Switch it off again (the shared server).
  await box.uncheck();
  await page.getByRole("button", { name: "Regel speichern" }).click();
  await page.waitForLoadState("networkidle");
});

test("3: voice transcript, messages, no-SMTP refusal", async ({
  page,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  const js = javaScriptEnabled !== false;
  await page.setViewportSize(SIZES[0]);
  const m = Math.random().toString(16).slice(2, 8);
  const lead = `lead-${m}@example.com`;
  const id = await seed.request({ name: `Gärtnerin ${m}`, email: lead, audio: true });
  await expect.poll(() => adminExtras(id)?.voiceTranscriptStatus).toBe("done");
  const admin = await seed.admin();
  await loginAs(page, admin);
  await page.goto(`/admin/requests?q=pflanzenabos+${m}`);
  if (js) await waitForHydration(page);
  await look(page, testInfo, "30-search", js);
  const row = page.locator(`[data-request-id="${id}"]`);
  await row.getByRole(js ? "button" : "link", { name: `Details zu Gärtnerin ${m}` }).click();
  if (js) await row.getByRole("tab", { name: "Anfrage" }).click();
  await row.locator("[data-voice-transcript]").scrollIntoViewIfNeeded();
  await look(page, testInfo, "31-row-details", js);

  await page.goto(`/admin/requests?requestId=${id}`);
  if (js) await waitForHydration(page);
  await page.locator("[data-fullscreen] [data-voice-transcript]").scrollIntoViewIfNeeded();
  await look(page, testInfo, "32-fullscreen", js);
  await page.getByRole("button", { name: "Erneut transkribieren" }).click();
  await page.waitForLoadState("networkidle");
  log(testInfo, `after Erneut transkribieren focus: ${await focused(page)} url ${page.url()}`);
  await look(page, testInfo, "33-retranscribe", js);
  await expect.poll(() => adminExtras(id)?.voiceTranscriptStatus).toBe("done");

  // Empty submit first.
  const section = page.getByRole("region", { name: "Nachricht an den Kunden" });
  await section.getByRole("button", { name: "Nachricht senden" }).click();
  await page.waitForLoadState("networkidle");
  log(testInfo, `after empty send focus: ${await focused(page)}`);
  await look(page, testInfo, "34-message-empty", js);
  await section.getByLabel("Betreff").fill(`Rückfrage ${m}`);
  await section.getByLabel("Nachricht", { exact: true }).fill("Wie viele Standorte habt ihr?");
  await section.getByRole("button", { name: "Nachricht senden" }).click();
  await expect
    .soft(page.locator('[aria-live="polite"]').getByText("Nachricht an den Kunden gesendet."))
    .toBeVisible();
  log(testInfo, `after send focus: ${await focused(page)}`);
  await look(page, testInfo, "35-message-sent", js);
  await waitForMail(lead, new RegExp(`Rückfrage ${m}`));
  await expect.poll(() => adminExtras(id)?.messages[0]?.status).toBe("sent");
  await page.reload();
  await look(page, testInfo, "36-thread", js);
  expect(currentStack().transcription.calls.length).toBeGreaterThan(0);
});

test("3b: without SMTP the refusal", async ({ page, plainApp, javaScriptEnabled }, testInfo) => {
  const js = javaScriptEnabled !== false;
  await page.setViewportSize(SIZES[0]);
  const id = await seedRequest(plainApp.url, { name: "Ohne Mail" });
  await loginAs(page, plainApp.admin, plainApp.url);
  log(testInfo, `plain after login: ${page.url()}`);
  await page.goto(`${plainApp.url}/admin/requests?requestId=${id}`);
  if (js) await waitForHydration(page);
  const section = page.getByRole("region", { name: "Nachricht an den Kunden" });
  await section.scrollIntoViewIfNeeded();
  await look(page, testInfo, "37-no-smtp", js);
  const send = section.getByRole("button", { name: "Nachricht senden" });
  if ((await send.count()) > 0 && (await send.isEnabled())) {
    await section.getByLabel("Betreff").fill("Test");
    await section.getByLabel("Nachricht", { exact: true }).fill("Hallo");
    await send.click();
    await page.waitForLoadState("networkidle");
    await look(page, testInfo, "38-no-smtp-sent", js);
  } else log(testInfo, "no-SMTP: send button absent/disabled");
  const api = await page.request.post(`${plainApp.url}/api/admin/requests/${id}/messages`, {
    headers: { origin: plainApp.url },
    data: { subject: "Test", body: "Hallo" },
  });
  log(testInfo, `no-SMTP API: ${api.status()} ${await api.text()}`);
});

test("4: audit page — filters and CSV", async ({ page, seed, javaScriptEnabled }, testInfo) => {
  const js = javaScriptEnabled !== false;
  await page.setViewportSize(SIZES[0]);
  const admin = await seed.admin();
  await loginAs(page, admin);
  await page.goto("/admin/settings");
  if (js) await waitForHydration(page);
  const unsaved = page.getByText("Ungespeicherte Änderungen", { exact: true });
  log(testInfo, `settings fresh load, "Ungespeicherte Änderungen" shown: ${await unsaved.count()}`);
  await page.getByRole("link", { name: "Protokoll" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Ungespeicherte Änderungen" });
  if (js && (await dialog.isVisible().catch(() => false))) {
    log(testInfo, "settings untouched → Protokoll link blocked by unsaved-changes dialog");
    await look(page, testInfo, "39-settings-unsaved-dialog", js);
    await dialog.getByRole("button", { name: "Verlassen und verwerfen" }).click();
  }
  await expect(page).toHaveURL(/\/admin\/audit/);
  if (js) await waitForHydration(page);
  await look(page, testInfo, "40-audit", js);
  const actors = await page.locator("#actor option").allTextContents();
  const actions = await page.locator("#action option").allTextContents();
  log(testInfo, `audit actors: ${actors.join(", ")}`);
  log(testInfo, `audit actions: ${actions.join(", ")}`);
  await page.locator("#actor").selectOption({ label: admin.username });
  await page.locator("#action").selectOption({ index: 1 });
  const today = new Date().toISOString().slice(0, 10);
  await page.locator("#from").fill(today);
  await page.locator("#to").fill(today);
  await page.getByRole("button", { name: "Filter anwenden" }).click();
  await page.waitForLoadState("networkidle");
  log(testInfo, `audit filtered: ${page.url()} focus ${await focused(page)}`);
  await look(page, testInfo, "41-audit-filtered", js);
  const href = await page.getByRole("link", { name: "Als CSV exportieren" }).getAttribute("href");
  const csv = await page.request.get(href!);
  log(
    testInfo,
    `csv ${csv.status()} ${csv.headers()["content-type"]} ${csv.headers()["content-disposition"]}`,
  );
  fs.writeFileSync(`${OUT}/${testInfo.project.name}-audit.csv`, await csv.body());
  // Unfiltered CSV too.
  await page.goto("/admin/audit");
  const all = await page.request.get("/admin/audit.csv");
  fs.writeFileSync(`${OUT}/${testInfo.project.name}-audit-all.csv`, await all.body());
});

test("2b: an admin held at enrolment switches the rule off himself", async ({
  page,
  browser,
  baseURL,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  const js = javaScriptEnabled !== false;
  await page.setViewportSize(SIZES[0]);
  seed.configuration({});
  const admin = await seed.admin();
  const colleague = await seed.admin();
  await loginAs(page, admin);
  await page.goto("/admin/account#sicherheit");
  if (js) await waitForHydration(page);
  await page.getByLabel("Zwei-Faktor-Anmeldung für alle Admins verlangen").check();
  await page.getByRole("button", { name: "Regel speichern" }).click();
  await expect(page.getByText("Die Zwei-Faktor-Anmeldung ist jetzt für alle Admins")).toBeVisible();

  const other = await browser.newContext({ baseURL, javaScriptEnabled: js });
  const p2 = await other.newPage();
  await p2.setViewportSize(SIZES[0]);
  await passwordStep(p2, colleague);
  await expect(p2).toHaveURL(/\/admin\/account/);
  if (js) await waitForHydration(p2);
  await p2.getByLabel("Zwei-Faktor-Anmeldung für alle Admins verlangen").uncheck();
  await p2.getByRole("button", { name: "Regel speichern" }).click();
  await p2.waitForLoadState("networkidle");
  await look(p2, testInfo, "24-colleague-switches-off", js);
  await p2.goto("/admin/requests");
  log(testInfo, `held colleague unchecked the rule, then /admin/requests → ${p2.url()}`);
  await look(p2, testInfo, "25-colleague-after-switch-off", js);
  await other.close();
});
