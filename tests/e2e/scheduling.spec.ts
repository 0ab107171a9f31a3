import AxeBuilder from "@axe-core/playwright";
import { submitVisitorRequest } from "./fidelity-helpers";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// Issue 28: the built-in scheduler's week in the card "Terminbuchung" (Conform lists, with and
// without JS), and a visitor books only inside the configured hours (here: a lunch break).

const PHONE = { width: 390, height: 844 };
test.describe.configure({ timeout: 180_000 });

const LUNCH = [
  { from: "09:00", to: "12:00" },
  { from: "13:00", to: "17:00" },
];

test("settings: a weekday gets a lunch break and a blocked day is added, then saved (390 px)", async ({
  page,
  loginAsNew,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  seed.configuration({});
  await page.setViewportSize(PHONE);
  await loginAsNew(page);
  await page.goto("/admin/settings#scheduling");
  if (javaScriptEnabled) await waitForHydration(page);
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
    const results = await new AxeBuilder({ page }).include("#appointments").analyze();
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
