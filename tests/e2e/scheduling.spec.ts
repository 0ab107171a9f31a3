import { axeOn } from "./axe";
import { submitVisitorRequest } from "./fidelity-helpers";
import { expect, test } from "./fixtures";

// ADR 264: the built-in scheduler's week in the card "Terminbuchung" (Conform lists, with and
// without JS), and a visitor books only inside the configured hours (here: a lunch break).

const PHONE = { width: 390, height: 844 };
test.describe.configure({ timeout: 180_000 });

const LUNCH = [
  { from: "09:00", to: "12:00" },
  { from: "13:00", to: "17:00" },
];

test("settings: a weekday gets a lunch break and a blocked day is added, then saved (390 px)", async ({
  page,
  openSettings,
  javaScriptEnabled,
}, testInfo) => {
  await openSettings(page, { section: "scheduling", viewport: PHONE });
  await expect(page.getByRole("group", { name: "Arbeitszeiten (Berliner Zeit)" })).toBeVisible();

  // Tuesday: 09:00–12:00, then a second interval 13:00–17:00 (the add button's default).
  await page.getByLabel("Dienstag 1: bis").fill("12:00");
  await page.getByRole("button", { name: "Dienstag: Zeitraum hinzufügen" }).click();
  const from = page.getByLabel("Dienstag 2: von");
  await expect(from).toBeFocused();
  await expect(from).toBeInViewport();
  await expect(from).toHaveValue("13:00");
  await expect(page.getByLabel("Dienstag 1: bis")).toHaveValue("12:00");
  if (!javaScriptEnabled)
    await expect(
      page.getByText("Zeitraum hinzugefügt – zum Übernehmen bitte speichern."),
    ).toBeVisible();

  // Saturday is free: no interval, "Keine Termine"; one is removed again.
  await page.getByRole("button", { name: "Samstag: Zeitraum hinzufügen" }).click();
  await page.getByRole("button", { name: "Samstag: Zeitraum 1 entfernen" }).click();
  await expect(page.getByRole("button", { name: "Samstag: Zeitraum hinzufügen" })).toBeFocused();

  // A blocked range with a note.
  await page.getByRole("button", { name: "Gesperrten Tag hinzufügen" }).click();
  await expect(page.locator("#blocked-0-from")).toBeFocused();
  await page.locator("#blocked-0-from").fill("2031-08-04");
  await page.locator("#blocked-0-to").fill("2031-08-15");
  await page.locator("#blocked-0-note").fill("Betriebsurlaub");
  await page.getByLabel("Bundesland (zusätzliche Feiertage)").selectOption("BY");

  if (javaScriptEnabled) {
    const results = await axeOn(page).include("#appointments").analyze();
    expect(
      results.violations.map((v) => `${v.id} (${v.nodes.length}) ${v.nodes[0]?.target}`),
    ).toEqual([]);
  }
  await page
    .locator("#scheduling")
    .screenshot({ path: testInfo.outputPath("scheduling-settings.png") });

  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!").first()).toBeVisible();
  await page.goto("/admin/settings#scheduling");
  await expect(page.getByLabel("Dienstag 1: bis")).toHaveValue("12:00");
  await expect(page.getByLabel("Dienstag 2: von")).toHaveValue("13:00");
  await expect(page.getByLabel("Dienstag 2: bis")).toHaveValue("17:00");
  await expect(page.locator("#blocked-0-note")).toHaveValue("Betriebsurlaub");
  await expect(page.getByLabel("Bundesland (zusätzliche Feiertage)")).toHaveValue("BY");
});

test("a visitor books inside the configured hours: the lunch break offers no time", async ({
  page,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  seed.configuration({
    scheduling: {
      weeklyHours: { mon: LUNCH, tue: LUNCH, wed: LUNCH, thu: LUNCH, fri: LUNCH, sat: [], sun: [] },
    },
  } as never);
  await page.setViewportSize(PHONE);
  const tag = Math.random().toString(36).slice(2, 8);
  const success = await submitVisitorRequest(
    page,
    `Lena Mittag ${tag}`,
    `lena-${tag}@example.com`,
    javaScriptEnabled,
  );
  let times: string[];
  if (javaScriptEnabled) {
    await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog).toContainText("Termine nur Mo-Fr verfügbar");
    await dialog.getByRole("button", { name: "Nächster Monat" }).click();
    await dialog.locator("button[aria-pressed]:not([disabled])").first().click();
    const buttons = dialog.locator(".grid-cols-3 button");
    await expect(buttons.first()).toBeVisible();
    times = (await buttons.allTextContents()).map((t) => t.trim());
    expect(times).toContain("11:30");
    expect(times).not.toContain("12:00");
    expect(times).not.toContain("12:30");
    await dialog.getByRole("button", { name: "13:00" }).click();
    await page.screenshot({ path: testInfo.outputPath("dialog-lunch.png") });
    await dialog.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    await expect(dialog.getByText("Termin erfolgreich gebucht!")).toBeVisible();
  } else {
    await success.getByRole("link", { name: "Demo-Termin buchen" }).click();
    await expect(
      page.getByText("Termine nur Mo-Fr verfügbar · Keine Termine am Wochenende"),
    ).toBeVisible();
    await page.getByRole("link", { name: "Nächster Monat" }).click();
    await page.locator("a[aria-label][href*='tag=']").first().click();
    const labels = page.locator("form label:has(input[name=startTime])");
    await expect(labels.first()).toBeVisible();
    times = (await labels.allTextContents()).map((t) => t.trim());
    expect(times).toContain("11:30");
    expect(times).not.toContain("12:00");
    expect(times).not.toContain("12:30");
    await labels.filter({ hasText: "13:00" }).click();
    await page.screenshot({ path: testInfo.outputPath("page-lunch.png") });
    await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    await expect(page.getByText("Termin erfolgreich gebucht!")).toBeVisible();
  }
});

/** Berlin's today plus `days` as YYYY-MM-DD. */
const berlinDayPlus = (days: number) => {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};
/** The first Mon–Fri day after `day` that is no fixed holiday. */
const nextWorkday = (day: string) => {
  const d = new Date(`${day}T12:00:00Z`);
  do d.setUTCDate(d.getUTCDate() + 1);
  while (
    [0, 6].includes(d.getUTCDay()) ||
    /-(12-2[456]|12-31|01-01|10-03|05-01)$/.test(d.toISOString().slice(0, 10))
  );
  return d.toISOString().slice(0, 10);
};
const germanDate = (day: string) => day.split("-").reverse().join(".");
const longDayLabel = (day: string) =>
  new Intl.DateTimeFormat("de-DE", {
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${day}T12:00:00Z`));

test("the horizon is named and ends the calendar; the success shows the video room and the .ics", async ({
  page,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  const room = "https://meet.example.com/agentur-raum";
  seed.configuration({
    scheduling: { horizonDays: 14 },
    teamCalendar: { busyFeeds: [], videoUrl: room },
  } as never);
  await page.setViewportSize(PHONE);
  const last = berlinDayPlus(14);
  const beyond = nextWorkday(last);
  const hint = `Buchbar bis ${germanDate(last)}`;
  const tag = Math.random().toString(36).slice(2, 8);
  const success = await submitVisitorRequest(
    page,
    `Hanna Horizont ${tag}`,
    `hanna-${tag}@example.com`,
    javaScriptEnabled,
  );
  const sameMonth = beyond.slice(0, 7) === berlinDayPlus(0).slice(0, 7);
  let result: ReturnType<typeof page.getByRole>;
  if (javaScriptEnabled) {
    await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
    const dialog = page.getByRole("dialog");
    await expect(dialog.getByText(hint)).toBeVisible();
    if (!sameMonth) await dialog.getByRole("button", { name: "Nächster Monat" }).click();
    await expect(dialog.getByRole("button", { name: longDayLabel(beyond) })).toBeDisabled();
    if (!sameMonth) await dialog.getByRole("button", { name: "Vorheriger Monat" }).click();
    // At a month's end the current month may have no bookable day left: then the next one.
    const open = dialog.locator("button[aria-pressed]:not([disabled])");
    await expect(
      dialog.getByRole("button", { name: longDayLabel(berlinDayPlus(0)) }),
    ).toBeVisible();
    if ((await open.count()) === 0) {
      await dialog.getByRole("button", { name: "Nächster Monat" }).click();
    }
    await open.first().click();
    await dialog.locator(".grid-cols-3 button").first().click();
    await dialog.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    result = dialog.getByRole("status").filter({ hasText: "Termin erfolgreich gebucht!" });
  } else {
    await success.getByRole("link", { name: "Demo-Termin buchen" }).click();
    await expect(page.getByText(hint)).toBeVisible();
    const url = new URL(page.url());
    url.searchParams.set("monat", beyond.slice(0, 7));
    await page.goto(url.pathname + url.search);
    await expect(page.locator(`a[href*='tag=${beyond}']`)).toHaveCount(0);
    await expect(page.getByLabel(longDayLabel(beyond))).toHaveCount(0);
    await page.goBack();
    const days = page.locator("a[aria-label][href*='tag=']");
    await expect(page.getByText(hint)).toBeVisible();
    // At a month's end the current month may have no bookable day left: then the next one.
    if ((await days.count()) === 0)
      await page.getByRole("link", { name: "Nächster Monat" }).click();
    await days.first().click();
    await page.locator("form label:has(input[name=startTime])").first().click();
    await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    result = page.getByRole("status").filter({ hasText: "Termin erfolgreich gebucht!" });
  }
  await expect(result).toBeVisible();
  // The dialog closes 2 s after its success (spec §2): what it showed is read at once, then the
  // success card on the page keeps the date, the video room and the .ics link.
  const shown = await result.evaluate((el) =>
    [...el.querySelectorAll("a")].map((a) => {
      const box = a.getBoundingClientRect();
      return {
        text: a.textContent?.trim(),
        href: a.getAttribute("href"),
        target: a.getAttribute("target"),
        rel: a.getAttribute("rel"),
        inView: box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0,
        context: a.parentElement?.textContent?.trim(),
      };
    }),
  );
  if (javaScriptEnabled)
    await page.screenshot({ path: testInfo.outputPath("success-video-dialog.png") });
  expect(shown).toContainEqual({
    text: room,
    href: room,
    target: "_blank",
    rel: expect.stringMatching(/noopener/),
    inView: true,
    context: `Videocall: ${room}`,
  });
  const icsLink = shown.find((a) => a.text === "Zum Kalender hinzufügen");
  expect(icsLink?.href).toMatch(/^\/termin\/kalender\?anfrage=\d+$/);
  expect(icsLink?.inView).toBe(true);
  const answer = await page.request.get(icsLink?.href ?? "");
  expect(answer.status()).toBe(200);
  expect(await answer.text()).toContain(room);
  if (javaScriptEnabled) {
    await expect(page.getByRole("dialog")).toHaveCount(0);
    const trace = success.getByTestId("booked-demo");
    await expect(trace).toContainText(`Videocall: ${room}`);
    await expect(trace.getByRole("link", { name: room })).toHaveAttribute("target", "_blank");
    await expect(trace.getByRole("link", { name: "Zum Kalender hinzufügen" })).toBeVisible();
  }
  await page.screenshot({
    path: testInfo.outputPath(`success-video-${javaScriptEnabled ? "js" : "nojs"}.png`),
  });
  if (javaScriptEnabled)
    expect(
      (await axeOn(page).include("[data-testid=booked-demo]").analyze()).violations.map(
        (v) => v.id,
      ),
    ).toEqual([]);
});
