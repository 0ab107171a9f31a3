import type { Page, TestInfo } from "@playwright/test";
import { loginAs } from "./auth";
import { axeOn } from "./axe";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// ADRs 266, 267: the video link on an appointment card and the team calendar's settings section
// (busy feed URL, fixed video room, subscription link of the booked demos) — with and without JS,
// at 390×844, axe clean.
test.use({ viewport: { width: 390, height: 844 } });

const axeClean = async (page: Page) => {
  // Cancelled cards of other tests in this worker's database are faded on purpose (opacity 50 %,
  // spec §2); they are not part of what is checked here.
  const violations = (await axeOn(page).exclude(".opacity-50").analyze()).violations;
  expect(violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
};
/** A toast in the polite live region "Benachrichtigungen" (announced, with and without JS). */
const toastOf = (page: Page, text: string) =>
  page.getByRole("region", { name: "Benachrichtigungen" }).getByText(text);
const shot = (page: Page, testInfo: TestInfo, name: string) =>
  page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: false });

test("an admin enters a video link on an appointment card", async ({
  page,
  loginAsNew,
  javaScriptEnabled,
  seed,
}, testInfo) => {
  await loginAsNew(page);
  const name = `Demo Video ${Date.now()}`;
  const appointment = seed.appointment({
    name,
    startTime: new Date(Date.now() + 3 * 86_400_000),
    status: "ACCEPTED",
  });
  await page.goto("/admin/appointments?filter=upcoming&sort=next");
  if (javaScriptEnabled) await waitForHydration(page);
  const card = page.getByTestId("appointment-card").filter({ hasText: name });
  await expect(card.getByText("noch kein Link")).toBeVisible();
  const field = card.getByLabel("Eigener Videolink für diesen Termin");
  await field.scrollIntoViewIfNeeded();
  const room = `https://meet.example.com/demo-${appointment.id}`;
  await field.fill(room);
  await card.getByRole("button", { name: "Videolink speichern" }).click();
  const toast = toastOf(page, "Videolink gespeichert.");
  await expect(toast).toBeVisible();
  await expect(toast).toBeInViewport();
  const saved = page.getByTestId("appointment-card").filter({ hasText: name });
  const link = saved.getByRole("link", { name: room });
  await expect(link).toHaveAttribute("href", room);
  await link.scrollIntoViewIfNeeded();
  await expect(link).toBeInViewport();
  await expect(saved.getByLabel("Eigener Videolink für diesen Termin")).toHaveValue(room);
  await shot(page, testInfo, `card-video-link-${javaScriptEnabled ? "js" : "nojs"}`);
  if (javaScriptEnabled) await axeClean(page);

  // Emptied: the card has no link again.
  await saved.getByLabel("Eigener Videolink für diesen Termin").fill("");
  await saved.getByRole("button", { name: "Videolink speichern" }).click();
  await expect(toastOf(page, "Videolink gespeichert.")).toBeVisible();
  await expect(
    page.getByTestId("appointment-card").filter({ hasText: name }).getByText("noch kein Link"),
  ).toBeVisible();
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`a refused video link at ${viewport.width} px: the card's toast says why, nothing changes`, async ({
    page,
    javaScriptEnabled,
    seed,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    await loginAs(page, await seed.admin());
    const name = `Demo Unsicher ${Date.now()}`;
    seed.appointment({
      name,
      startTime: new Date(Date.now() + 4 * 86_400_000),
      status: "ACCEPTED",
    });
    await page.goto("/admin/appointments?filter=upcoming&sort=next");
    if (javaScriptEnabled) await waitForHydration(page);
    const card = page.getByTestId("appointment-card").filter({ hasText: name });
    const field = card.getByLabel("Eigener Videolink für diesen Termin");
    await field.scrollIntoViewIfNeeded();
    // The input's pattern lets the browser refuse it first; past that check (removed here, as a
    // hand-made post would) the rule is the server's, for the card and PATCH
    // /api/admin/appointments/{id} alike (ADR 310).
    await field.evaluate((el) => el.removeAttribute("pattern"));
    await field.fill("http://meet.example.com/unsicher");
    await card.getByRole("button", { name: "Videolink speichern" }).click();
    const toast = toastOf(page, "Bitte geben Sie eine gültige https-Adresse ein (https://…)!");
    await expect(toast).toBeVisible();
    await expect(toast).toBeInViewport();
    await shot(
      page,
      testInfo,
      `card-video-link-refused-${viewport.width}-${javaScriptEnabled ? "js" : "nojs"}`,
    );
    await expect(
      page.getByTestId("appointment-card").filter({ hasText: name }).getByText("noch kein Link"),
    ).toBeVisible();
  });
}

test("team calendar settings: a feed URL (masked), the video room and a subscription link", async ({
  page,
  javaScriptEnabled,
  openSettings,
}, testInfo) => {
  await openSettings(page);
  const section = page.locator("#teamCalendar");
  await section.scrollIntoViewIfNeeded();
  await expect(section.getByRole("heading", { name: "Kalender des Teams" })).toBeVisible();
  await expect(section.getByText("Noch keine Kalender.")).toBeVisible();
  const save = () => page.getByRole("button", { name: "Konfiguration speichern" }).click();

  // A new row (Conform's list insert; without JS the server adds it), a link-local target: refused
  // at the field on save, the typed value stays, the field is focused and described.
  await section.getByRole("button", { name: "Kalender hinzufügen" }).click();
  const first = page.locator("#teamCalendar").getByLabel("Kalender 1", { exact: true });
  await expect(first).toBeFocused();
  await first.fill("https://169.254.169.254/latest/meta-data");
  await page
    .locator("#teamCalendar")
    .getByLabel("Fester Videoraum (https)")
    .fill("https://meet.example.com/team");
  await save();
  await expect(
    page.getByRole("alert").filter({ hasText: "Fehler beim Speichern der Konfiguration!" }),
  ).toBeVisible();
  const refused = page.locator("#teamCalendar").getByLabel("Kalender 1", { exact: true });
  await expect(refused).toHaveValue("https://169.254.169.254/latest/meta-data");
  await expect(refused).toHaveAccessibleDescription(/nicht erlaubt/);
  await expect(refused).toBeFocused();
  await expect(refused).toBeInViewport();

  const secret =
    "https://calendar.example.com/ical/team%40example.com/private-geheim4711/basic.ics";
  await refused.fill(secret);
  await save();
  await expect(toastOf(page, "Konfiguration erfolgreich gespeichert!")).toBeVisible();
  const feed = page.getByTestId("busy-feed");
  await expect(feed.getByLabel("Kalender 1", { exact: true })).toHaveValue(
    "https://calendar.example.com/••••••••.ics",
  );
  await expect(page.getByLabel("Fester Videoraum (https)")).toHaveValue(
    "https://meet.example.com/team",
  );
  // The secret URL is nowhere in the page (not in the hydration data either).
  expect(await (await page.request.get("/admin/settings")).text()).not.toContain("geheim4711");
  // Saving again with the masked URL keeps the stored feed.
  await save();
  await expect(toastOf(page, "Konfiguration erfolgreich gespeichert!").first()).toBeVisible();
  await expect(page.getByTestId("busy-feed").getByLabel("Kalender 1", { exact: true })).toHaveValue(
    "https://calendar.example.com/••••••••.ics",
  );
  await page.getByRole("button", { name: "Jetzt abrufen" }).click();
  await expect(toastOf(page, "Die Kalender werden jetzt abgerufen.")).toBeVisible();
  await page.locator("#teamCalendar").screenshot({
    path: testInfo.outputPath(`team-calendar-${javaScriptEnabled ? "js" : "nojs"}.png`),
  });

  // A subscription link of the booked demos: shown once, then revoked.
  await page.getByRole("button", { name: "Abo-Link erzeugen" }).click();
  const newLink = page.getByLabel("Neuer Abo-Link – jetzt kopieren und im Kalender abonnieren:");
  await expect(newLink).toHaveValue(/\/admin\/kalender\.ics\?token=[\w-]{40,}$/);
  await newLink.scrollIntoViewIfNeeded();
  await expect(newLink).toBeInViewport();
  const feedUrl = new URL(await newLink.inputValue());
  const ics = await page.request.get(feedUrl.pathname + feedUrl.search);
  expect(ics.status()).toBe(200);
  expect(await ics.text()).toContain("BEGIN:VCALENDAR");
  await shot(page, testInfo, `team-calendar-link-${javaScriptEnabled ? "js" : "nojs"}`);
  if (javaScriptEnabled) await axeClean(page);

  await page
    .getByRole("button", { name: /^Abo-Link \d+ widerrufen$/ })
    .first()
    .click();
  await expect(toastOf(page, "Abo-Link widerrufen")).toBeVisible();
  expect((await page.request.get(feedUrl.pathname + feedUrl.search)).status()).toBe(404);

  // Clean up: no room, no feed (other tests of this worker share the database).
  await page.getByLabel("Fester Videoraum (https)").fill("");
  await page.getByRole("button", { name: "Kalender 1 entfernen" }).click();
  await expect(page.locator("#teamCalendar").getByText("Noch keine Kalender.")).toBeVisible();
  await save();
  await expect(toastOf(page, "Konfiguration erfolgreich gespeichert!").first()).toBeVisible();
  await expect(page.getByLabel("Fester Videoraum (https)")).toHaveValue("");
  await expect(page.locator("#teamCalendar").getByText("Noch keine Kalender.")).toBeVisible();
});

test("a removed feed is saved away: no dashboard warning for it, the save toast shows", async ({
  page,
  javaScriptEnabled,
  openSettings,
}, testInfo) => {
  const section = await openSettings(page, { section: "teamCalendar" });
  const save = () => page.getByRole("button", { name: "Konfiguration speichern" }).click();
  const saved = () => toastOf(page, "Konfiguration erfolgreich gespeichert!").first();

  // A feed whose host does not exist: its first fetch fails and the dashboard warns.
  await section.getByRole("button", { name: "Kalender hinzufügen" }).click();
  await section
    .getByLabel("Kalender 1", { exact: true })
    .fill("https://kalender.invalid/private-weg/basic.ics");
  await save();
  await expect(saved()).toBeVisible();
  await expect(async () => {
    await page.goto("/admin");
    await expect(page.getByText("Ein Kalender des Teams ist gerade nicht erreichbar.")).toBeVisible(
      {
        timeout: 1000,
      },
    );
  }).toPass({ timeout: 15_000 });
  await expect(page.getByText("Adresse nicht gefunden")).toBeVisible();
  await expect(page.getByText("Noch nicht abgerufen")).toHaveCount(0);
  await page
    .locator("div", { hasText: "Ein Kalender des Teams ist gerade nicht erreichbar." })
    .last()
    .screenshot({
      path: testInfo.outputPath(`feed-warning-${javaScriptEnabled ? "js" : "nojs"}.png`),
    });

  // Removed and saved: the save is confirmed, the configuration has no feed, no warning.
  await page.goto("/admin/settings#teamCalendar");
  if (javaScriptEnabled) await waitForHydration(page);
  await page.getByRole("button", { name: "Kalender 1 entfernen" }).click();
  await expect(page.locator("#teamCalendar").getByText("Noch keine Kalender.")).toBeVisible();
  await save();
  const toast = saved();
  await expect(toast).toBeVisible();
  await expect(toast).toBeInViewport();
  const config = await (await page.request.get("/api/configuration")).json();
  expect(config.teamCalendar.busyFeeds).toEqual([]);
  await page.goto("/admin");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByText(/Kalender des Teams (ist|sind) gerade nicht erreichbar/)).toHaveCount(
    0,
  );
  await expect(page.getByText("kalender.invalid")).toHaveCount(0);
});
