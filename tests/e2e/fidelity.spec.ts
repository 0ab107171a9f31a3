import { randomBytes } from "node:crypto";
import { loginAs, signIn } from "./auth";
import { requestIdOf, submitVisitorRequest, withConfiguration } from "./fidelity-helpers";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

const unique = () => randomBytes(4).toString("hex");

test("booking switched off: no demo offer after submitting, and /termin answers 404", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = `aus-${unique()}@example.com`;
  await withConfiguration({ appointmentEventType: null }, async () => {
    const success = await submitVisitorRequest(page, "Olga Ohne", email, javaScriptEnabled);
    await expect(success).toContainText("Anfrage #");
    await expect(page.getByText("Demo-Termin buchen")).toHaveCount(0);
    await expect(page.getByText("Lust auf eine persönliche Demo?")).toHaveCount(0);
    const response = await page.goto(`/termin?anfrage=${requestIdOf(email)}`);
    expect(response?.status()).toBe(404);
  });
  // Switched on again: the same visitor's request offers the booking page.
  const response = await page.goto(`/termin?anfrage=${requestIdOf(email)}`);
  expect(response?.status()).toBe(200);
});

test("Termine: every status has its German label, tone and filter; cancelled and deleted fade", async ({
  page,
  seed,
}) => {
  const admin = await seed.admin();
  const tag = unique();
  const statuses = ["ACCEPTED", "CONFIRMED", "PENDING", "CANCELLED", "DELETED", "REJECTED"];
  // Far in the future and apart from each other, so no booking test meets them.
  const base = Date.UTC(2031, 0, 6, 9) + Math.floor(Math.random() * 1000) * 86_400_000;
  statuses.forEach((s, i) => {
    seed.appointment({
      name: `Status ${tag} ${s}`,
      startTime: new Date(base + i * 3_600_000),
      status: s,
    });
  });
  await loginAs(page, admin);
  const card = (s: string) =>
    page.getByTestId("appointment-card").filter({ hasText: `Status ${tag} ${s}` });

  await page.goto("/admin/appointments?filter=upcoming&sort=next");
  const expected: Record<string, string> = {
    ACCEPTED: "Bestätigt",
    CONFIRMED: "Bestätigt",
    PENDING: "Ausstehend",
    CANCELLED: "Abgesagt",
    DELETED: "Gelöscht",
    REJECTED: "Abgelehnt",
  };
  for (const s of statuses) {
    await expect(card(s)).toContainText(expected[s] as string);
    const opacity = await card(s).evaluate((el) => getComputedStyle(el).opacity);
    expect(opacity, s).toBe(s === "CANCELLED" || s === "DELETED" ? "0.5" : "1");
  }

  // Each filter key reaches its statuses (CONFIRMED and DELETED included); 'Sonstige' the rest.
  const reached = async (key: string) => {
    await page.goto(`/admin/appointments?filter=upcoming&sort=next&status=${key}`);
    const found: string[] = [];
    for (const s of statuses) if ((await card(s).count()) > 0) found.push(s);
    return found;
  };
  expect(await reached("confirmed")).toEqual(["ACCEPTED", "CONFIRMED"]);
  expect(await reached("pending")).toEqual(["PENDING"]);
  expect(await reached("cancelled")).toEqual(["CANCELLED", "DELETED"]);
  expect(await reached("other")).toEqual(["REJECTED"]);
  await expect(page.getByText("Status: Sonstige")).toBeVisible();
});

test("request rows: status, assignment, full screen and quick actions without expanding", async ({
  page,
  javaScriptEnabled,
  seed,
}) => {
  const tag = unique();
  const name = `Reihe ${tag}`;
  const id = await seed.request({
    name,
    email: `reihe-${tag}@example.com`,
    companyDescription: "Eine Bäckerei mit drei Filialen in Berlin",
    description: "Eine App für Vorbestellungen und Abholzeiten.",
  });
  const admin = await seed.admin();
  await signIn(page, admin, { to: `/admin/requests?q=${tag}` });
  if (javaScriptEnabled) await waitForHydration(page);
  const row = page.getByTestId("request-row").filter({ hasText: name });
  // The detail tabs stay closed; the row's own controls are visible.
  await expect(row.getByRole("tab", { name: "Unternehmen" })).toHaveCount(0);
  await expect(row.getByLabel(`Status von Anfrage ${id}`)).toBeVisible();
  await expect(row.getByRole("link", { name: /im Vollbild öffnen/ })).toBeVisible();

  await row.getByLabel(`Status von Anfrage ${id}`).selectOption("Done");
  if (!javaScriptEnabled) await row.getByRole("button", { name: "Status speichern" }).click();
  await expect(page.getByText("Status gespeichert.")).toBeVisible();

  await row.locator("summary", { hasText: "Zuweisen" }).click();
  await row.getByLabel("Zuweisung ändern").selectOption({ label: admin.username });
  await row.getByRole("button", { name: "Zuweisen", exact: true }).click();
  await expect(page.getByText(`${admin.username} wurde zugewiesen.`)).toBeVisible();
  await expect(row.locator("summary", { hasText: `Zugewiesen: ${admin.username}` })).toBeVisible();

  await row.locator("summary", { hasText: "Schnellaktionen" }).click();
  await expect(row.getByRole("button", { name: "Archivieren" })).toBeVisible();
  if (javaScriptEnabled)
    await expect(row.getByRole("button", { name: "Link teilen" })).toBeVisible();
  else await expect(row.getByLabel("Link teilen")).toHaveValue(new RegExp(`requestId=${id}$`));

  // The expand button opens the detail tabs.
  // Menus close again (without JS by their own summary).
  await row.locator("summary", { hasText: "Schnellaktionen" }).click();
  await row
    .getByRole(javaScriptEnabled ? "button" : "link", { name: `Details zu ${name}` })
    .click();
  if (javaScriptEnabled) await expect(row.getByRole("tab", { name: "Zuweisung" })).toBeVisible();
  else await expect(row.getByText("Preparation").first()).toBeVisible();

  await row.getByRole("link", { name: /im Vollbild öffnen/ }).click();
  await expect(page).toHaveURL(new RegExp(`requestId=${id}`));
  await expect(page.getByRole("dialog", { name })).toBeVisible();
});

test("demo mode shows the spec's sample request and books nothing", async ({
  page,
  javaScriptEnabled,
  openSettings,
}) => {
  await openSettings(page);
  await page
    .getByRole("button", { name: "Buchungsdialog testen (Demo)" })
    .or(page.getByRole("link", { name: "Buchungsdialog testen (Demo)" }))
    .click();
  const scope = javaScriptEnabled ? page.getByRole("dialog") : page.locator("main");
  const sample = scope.getByTestId("demo-request");
  await expect(sample).toContainText("Max Mustermann (Demo)");
  for (const text of [
    "Priorität",
    "hoch",
    "Kategorie",
    "Entwicklung",
    "Status",
    "offen",
    "Erstellt am",
  ])
    await expect(sample).toContainText(text);
  await expect(sample).toContainText("Terminart");
  await expect(sample).toContainText("demo");

  if (javaScriptEnabled) {
    await scope.getByRole("button", { name: "Nächster Monat" }).click();
    await scope.locator("button[aria-pressed]:not([disabled])").first().click();
    const times = scope.locator(".grid-cols-3 button");
    await expect(times.first()).toBeVisible();
    await times.first().click();
    await scope.getByRole("button", { name: "Termin verbindlich buchen" }).click();
  } else {
    await page.getByRole("link", { name: "Nächster Monat" }).click();
    await page.locator("a[aria-label][href*='tag=']").first().click();
    await page.locator("form label:has(input[name=startTime])").first().click();
    await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
  }
  await expect(scope.getByText("Demo-Modus: Es wurde nichts gebucht.")).toBeVisible();
  // The chosen time appears in the sample (selectedTime).
  await expect(scope.getByTestId("demo-request")).toContainText(
    /Gewählte Zeit\s*\d{2}\.\d{2}\.\d{4}/,
  );
});

test("a booked demo leaves a trace: success card, history and the .ics; history books a demo", async ({
  page,
  javaScriptEnabled,
  browser,
}) => {
  const tag = unique();
  const name = `Spur ${tag}`;
  const email = `spur-${tag}@example.com`;
  const success = await submitVisitorRequest(page, name, email, javaScriptEnabled);
  const id = requestIdOf(email);
  const history = page.locator("#history");

  if (javaScriptEnabled) {
    // Book from the success card through the dialog (two months ahead: apart from booking.spec).
    await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Nächster Monat" }).click();
    await dialog.getByRole("button", { name: "Nächster Monat" }).click();
    await dialog.locator("button[aria-pressed]:not([disabled])").first().click();
    const times = dialog.locator(".grid-cols-3 button");
    await times.nth(4).click();
    await dialog.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    await expect(dialog).toHaveCount(0, { timeout: 5000 });
    await expect(success.getByTestId("booked-demo")).toContainText(/Dein Demo-Termin: \w+, \d+\./);
    await expect(success.getByRole("link", { name: "Zum Kalender hinzufügen" })).toBeVisible();
  } else {
    // A request without a demo books one from the history (server-rendered page).
    const row = history
      .getByTestId("history-row")
      .filter({ hasText: `#${String(id).padStart(4, "0")}` });
    await row.getByRole("link", { name: "Demo-Termin buchen" }).click();
    await expect(page).toHaveURL(new RegExp(`/termin\\?anfrage=${id}`));
    await page.getByRole("link", { name: "Nächster Monat" }).click();
    await page.getByRole("link", { name: "Nächster Monat" }).click();
    await page.locator("a[aria-label][href*='tag=']").first().click();
    await page.locator("form label:has(input[name=startTime])").nth(5).click();
    await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    await expect(page.getByText("Termin erfolgreich gebucht!")).toBeVisible();
    await expect(page.getByRole("link", { name: "Zum Kalender hinzufügen" })).toBeVisible();
    await page.getByRole("link", { name: "Fertig" }).click();
  }

  // The history shows the appointment with its .ics link.
  const row = history
    .getByTestId("history-row")
    .filter({ hasText: `#${String(id).padStart(4, "0")}` });
  await expect(row.getByTestId("booked-demo")).toContainText("Dein Demo-Termin:");
  await expect(row.getByRole("link", { name: "Demo-Termin buchen" })).toHaveCount(0);
  const href = await row
    .getByRole("link", { name: "Zum Kalender hinzufügen" })
    .getAttribute("href");
  expect(href).toBe(`/termin/kalender?anfrage=${id}`);
  const ics = await page.request.get(href as string);
  expect(ics.status()).toBe(200);
  expect(ics.headers()["content-type"]).toContain("text/calendar");
  expect(ics.headers()["content-disposition"]).toMatch(
    /^attachment; filename="demo-termin-\d{4}-\d{2}-\d{2}\.ics"/,
  );
  const text = await ics.text();
  expect(text).toMatch(/^UID:.+@anfrage-portal\r?$/m);
  expect(text).toContain("SEQUENCE:0");
  // The same UID on a second download (stable).
  const again = await (await page.request.get(href as string)).text();
  expect(again.match(/^UID:.*$/m)?.[0]).toBe(text.match(/^UID:.*$/m)?.[0]);

  // Someone else (no history cookie) gets nothing.
  const stranger = await browser.newContext();
  const other = await stranger.request.get(new URL(href as string, page.url()).toString());
  expect(other.status()).toBe(404);
  await stranger.close();
});

test("inviting without SMTP shows the link once with a copy button and says no mail was sent", async ({
  page,
  context,
  javaScriptEnabled,
  browser,
  calcomApp,
}) => {
  // The stack's Cal.com server runs without SMTP_URL; its first admin may log in right away.
  const CALCOM_APP_URL = calcomApp.url;
  const admin = calcomApp.admin;
  const email = `ohne-smtp-${unique()}@example.com`;
  await signIn(page, admin, { to: `/admin/users`, baseUrl: CALCOM_APP_URL });
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByLabel("E-Mail-Adresse").fill(email);
  await page.getByRole("button", { name: "Einladung senden" }).click();
  const notice = page.getByTestId("invitation-link-notice");
  await expect(notice).toContainText("Es wurde keine E-Mail versendet");
  await expect(page.getByText(`Einladung an ${email} gesendet.`)).toHaveCount(0);
  const link = (await notice.getByTestId("invitation-link").textContent())?.trim() ?? "";
  expect(link).toMatch(/\/admin\/register\?token=/);
  if (javaScriptEnabled) {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await notice.getByRole("button", { name: "Einladungslink kopieren" }).click();
    await expect(page.getByText("Einladungslink in die Zwischenablage kopiert!")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  } else {
    await expect(notice.getByLabel("Einladungslink kopieren")).toHaveValue(link);
  }
  // Shown once: a reload does not show it again.
  await page.goto(`${CALCOM_APP_URL}/admin/users`);
  await expect(page.getByTestId("invitation-link-notice")).toHaveCount(0);

  // The link works for the invitee.
  const invitee = await browser.newContext({ javaScriptEnabled });
  const registerPage = await invitee.newPage();
  const url = new URL(link);
  await registerPage.goto(`${CALCOM_APP_URL}${url.pathname}${url.search}`);
  await expect(registerPage.getByText(`Sie wurden als ${email} eingeladen`)).toBeVisible();
  // A broken link reads naturally.
  await registerPage.goto(`${CALCOM_APP_URL}/admin/register?token=kaputt`);
  await expect(
    registerPage.getByText("Ungültiger oder abgelaufener Einladungslink."),
  ).toBeVisible();
  await expect(registerPage.getByText(/Einladungslink aus Ihrer Einladung/)).toBeVisible();
  await expect(registerPage.getByText("Bitte bitten")).toHaveCount(0);
  await invitee.close();
});
