import type { Page, TestInfo } from "@playwright/test";
import ICAL from "ical.js";
import { type Radicale, startRadicale } from "../radicale";
import { signIn } from "./auth";
import { submitVisitorRequest } from "./fidelity-helpers";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// The team's real calendar (ADRs 335–337), with and without JavaScript, at 390×844 and 1280×800:
// an admin connects a Radicale calendar in Account-Einstellungen (discovery from the bare
// address), chooses the busy calendar and the demo calendar, tests the connection; a visitor
// books on the landing page; the demo event is in Radicale within seconds.
const shot = (page: Page, testInfo: TestInfo, name: string) =>
  page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: false });

let radicale: Radicale;
test.beforeEach(async () => {
  radicale = await startRadicale({ lea: "app-passwort-1" });
  await radicale.makeCalendar("lea", "arbeit", "Arbeit");
  await radicale.makeCalendar("lea", "demos", "Demos");
});
test.afterEach(async () => {
  await radicale?.close();
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`connect in Account-Einstellungen, book on the landing page, the event is in Radicale (${viewport.width} px)`, async ({
    page,
    browser,
    javaScriptEnabled,
    seed,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const mode = `${javaScriptEnabled ? "js" : "nojs"}-${viewport.width}`;
    await signIn(page, await seed.admin(), { to: "/admin/account#kalender" });
    if (javaScriptEnabled) await waitForHydration(page);
    const section = page.locator("#kalender");
    await section.getByLabel("Adresse des Kalender-Servers").fill(radicale.url);
    await section.getByLabel("Benutzername").fill("lea");
    await section.getByLabel("App-Passwort").fill("falsch");
    await section.getByRole("button", { name: "Verbinden" }).click();
    // A wrong app password is named, focused and announced, and at its field.
    const refused = page
      .locator("#kalender")
      .getByRole("alert")
      .filter({ hasText: "Anmeldung abgelehnt (401)" });
    await expect(refused).toBeInViewport();
    // With JS Conform focuses the field in error; without, the announced answer has the focus.
    if (javaScriptEnabled) await expect(section.getByLabel("App-Passwort")).toBeFocused();
    else await expect(page.locator(":focus")).toContainText("Anmeldung abgelehnt (401)");
    await expect(page.locator("#kalender").getByLabel("App-Passwort")).toHaveAttribute(
      "aria-invalid",
      "true",
    );

    await section.getByLabel("Adresse des Kalender-Servers").fill(radicale.url);
    await section.getByLabel("Benutzername").fill("lea");
    await section.getByLabel("App-Passwort").fill("app-passwort-1");
    await section.getByRole("button", { name: "Verbinden" }).click();
    const connected = page
      .getByRole("status")
      .filter({ hasText: "Kalender verbunden: 2 Kalender gefunden" });
    await expect(connected).toBeVisible();
    await expect(connected).toBeInViewport();
    // The answer takes the focus (announced; no JS: the new page's autofocus).
    await expect(page.locator(":focus")).toContainText("Kalender verbunden");
    await expect(page.locator("#kalender")).not.toContainText("app-passwort-1");

    await section.getByLabel("Zählt als belegt (Demos)").uncheck();
    await section.getByLabel("Demos hier eintragen (Demos)").check();
    await section.getByRole("button", { name: "Auswahl speichern" }).click();
    const saved = page
      .getByRole("status")
      .filter({ hasText: "Die Kalender-Auswahl wurde gespeichert." });
    await expect(saved).toBeVisible();
    await expect(saved).toBeInViewport();
    await expect(page.locator(":focus")).toContainText("gespeichert");
    await expect(section.getByLabel("Demos hier eintragen (Demos)")).toBeChecked();
    await expect(section.getByLabel("Zählt als belegt (Demos)")).not.toBeChecked();
    await expect(section.getByLabel("Zählt als belegt (Arbeit)")).toBeChecked();

    await page.locator("#kalender").getByRole("button", { name: "Verbindung testen" }).click();
    const tested = page.getByRole("status").filter({ hasText: "Verbindung erfolgreich" });
    await expect(tested).toBeVisible();
    await expect(tested).toBeInViewport();
    await expect(page.locator(":focus")).toContainText("Verbindung erfolgreich");
    await shot(page, testInfo, `account-calendar-${mode}`);

    // A visitor books on the landing page.
    const visitor = await (
      await browser.newContext({
        javaScriptEnabled,
        viewport,
        locale: "de-DE",
        timezoneId: "Europe/Berlin",
      })
    ).newPage();
    const tag = Math.random().toString(36).slice(2, 8);
    const success = await submitVisitorRequest(
      visitor,
      `Kai Kalender ${tag}`,
      `kai-${tag}@example.com`,
      javaScriptEnabled,
    );
    let booked: string;
    if (javaScriptEnabled) {
      await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
      const dialog = visitor.getByRole("dialog");
      await dialog.getByRole("button", { name: "Nächster Monat" }).click();
      await dialog.locator("button[aria-pressed]:not([disabled])").first().click();
      const times = dialog.locator(".grid-cols-3 button");
      await expect(times.first()).toBeVisible();
      booked = (await times.nth(1).textContent())?.trim() ?? "";
      await times.nth(1).click();
      await dialog.getByRole("button", { name: "Termin verbindlich buchen" }).click();
      await expect(dialog).toContainText("Termin erfolgreich gebucht!");
    } else {
      await success.getByRole("link", { name: "Demo-Termin buchen" }).click();
      await visitor.getByRole("link", { name: "Nächster Monat" }).click();
      await visitor.locator("a[aria-label][href*='tag=']").first().click();
      const labels = visitor.locator("form label:has(input[name=startTime])");
      await expect(labels.first()).toBeVisible();
      booked = (await labels.nth(1).textContent())?.trim() ?? "";
      await labels.nth(1).click();
      await visitor.getByRole("button", { name: "Termin verbindlich buchen" }).click();
      await expect(visitor.getByText("Termin erfolgreich gebucht!")).toBeVisible();
    }
    await shot(visitor, testInfo, `booked-${mode}`);

    // Within seconds the demo is in Radicale's "Demos": "Demo #…", at the booked time, no lead data.
    await expect
      .poll(async () => (await radicale.objects("lea", "demos")).length, { timeout: 15_000 })
      .toBe(1);
    const [event] = await radicale.objects("lea", "demos");
    const vevent = new ICAL.Component(ICAL.parse(event?.text ?? "")).getFirstSubcomponent("vevent");
    expect(String(vevent?.getFirstPropertyValue("summary"))).toMatch(/^Demo #\d{4}$/);
    const dtstart = vevent?.getFirstPropertyValue("dtstart") as ICAL.Time | undefined;
    expect(dtstart).toBeTruthy();
    const start = (dtstart as ICAL.Time).toJSDate();
    expect(
      start.toLocaleTimeString("de-DE", {
        hour: "2-digit",
        minute: "2-digit",
        timeZone: "Europe/Berlin",
      }),
    ).toBe(booked);
    expect(event?.text).not.toMatch(/ATTENDEE|ORGANIZER|kai-/);
    expect(await radicale.objects("lea", "arbeit")).toHaveLength(0);
  });
}
