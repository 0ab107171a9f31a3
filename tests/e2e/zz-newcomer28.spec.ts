// SCRATCH walkthrough of issue 28 by helper newcomer28 — NOT TO BE MERGED.
// Soft checks + screenshots + axe dumps; findings are logged with "FINDING" for the report.
import AxeBuilder from "@axe-core/playwright";
import type { Page, TestInfo } from "@playwright/test";
import { requestIdOf, submitVisitorRequest } from "./fidelity-helpers";
import { expect, test, waitForMail } from "./fixtures";
import { waitForHydration } from "./hydration";

test.describe.configure({ timeout: 240_000 });
const W = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
const AM_PM = [
  { from: "09:00", to: "12:00" },
  { from: "13:00", to: "17:00" },
];
const FRI = [{ from: "09:00", to: "13:00" }];
const ROOM = "https://meet.example.com/agentur-raum";

const note = (t: TestInfo, s: string) => {
  console.log(`FINDING [${t.project.name} ${t.title}] ${s}`);
};
const axe = async (page: Page, t: TestInfo, where: string) => {
  if (t.project.name === "js-off") return; // axe needs JS in the page
  const v = (await new AxeBuilder({ page }).exclude(".opacity-50").analyze()).violations;
  if (v.length)
    note(t, `axe ${where}: ${v.map((x) => `${x.id}(${x.nodes.length}) ${x.nodes[0]?.target}`).join("; ")}`);
};
const shot = (page: Page, t: TestInfo, name: string, fullPage = false) =>
  page.screenshot({ path: t.outputPath(`${name}.png`), fullPage });
const overflow = async (page: Page, t: TestInfo, where: string) => {
  const o = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  if (o > 0) note(t, `horizontal overflow ${o}px on ${where}`);
};

for (const vp of W) {
  test.describe(`${vp.width}`, () => {
    test.use({ viewport: vp });

    test("1 admin sets the week", async ({ page, loginAsNew, seed, javaScriptEnabled }, t) => {
      seed.configuration({});
      await loginAsNew(page);
      await page.goto("/admin/settings#scheduling");
      if (javaScriptEnabled) await waitForHydration(page);
      await shot(page, t, "1a-settings-top");
      await overflow(page, t, "/admin/settings");
      await axe(page, t, "/admin/settings");
      // Error first: Monday end before start.
      await page.getByLabel("Montag 1: bis").fill("08:00");
      await page.getByRole("button", { name: "Konfiguration speichern" }).click();
      await page.waitForLoadState("load");
      const mon = page.getByLabel("Montag 1: bis");
      await shot(page, t, "1b-error");
      const desc = await mon.evaluate((el) => {
        const ids = (el.getAttribute("aria-describedby") ?? "").split(/\s+/);
        return ids.map((i) => document.getElementById(i)?.textContent ?? "").join(" | ");
      });
      console.log(`INFO error description: ${desc}; invalid=${await mon.getAttribute("aria-invalid")}`);
      const from = page.getByLabel("Montag 1: von");
      const focusedLabel = await page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName);
      console.log(`INFO focused after error: ${focusedLabel}`);
      if (!(await mon.evaluate((e) => e === document.activeElement)) && !(await from.evaluate((e) => e === document.activeElement)))
        note(t, `after end-before-start save, focus is on ${focusedLabel}, not the Montag field`);
      const inView = await mon.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.bottom <= window.innerHeight;
      });
      if (!inView) note(t, "Montag error field not in viewport after save");
      await mon.fill("12:00");
      // Monday second interval
      for (const day of ["Montag", "Dienstag", "Mittwoch", "Donnerstag"]) {
        await page.getByLabel(`${day} 1: bis`).fill("12:00");
        await page.getByRole("button", { name: `${day}: Zeitraum hinzufügen` }).click();
        await expect(page.getByLabel(`${day} 2: von`)).toBeVisible();
        await page.getByLabel(`${day} 2: von`).fill("13:00");
        await page.getByLabel(`${day} 2: bis`).fill("17:00");
      }
      await page.getByLabel("Freitag 1: bis").fill("13:00");
      await page.getByLabel("Puffer nach dem Termin (Minuten)").fill("15");
      await page.getByLabel("Höchstens Termine pro Tag (0 = unbegrenzt)").fill("3");
      await page.getByLabel("Buchbar für die nächsten Tage (0 = unbegrenzt)").fill("14");
      await page.getByRole("button", { name: "Gesperrten Tag hinzufügen" }).click();
      await page.locator("#blocked-0-from").fill("2031-08-04");
      await page.locator("#blocked-0-to").fill("2031-08-15");
      await page.locator("#blocked-0-note").fill("Betriebsurlaub");
      await page.getByLabel("Bundesland (zusätzliche Feiertage)").selectOption("BY");
      const tc = page.locator("#teamCalendar");
      await tc.getByLabel("Fester Videoraum (https)").fill(ROOM);
      await tc.getByRole("button", { name: "Kalender hinzufügen" }).click();
      await tc.getByLabel("Kalender 1", { exact: true }).fill("https://calendar.example.com/private-abc/basic.ics");
      await page.locator("#scheduling").screenshot({ path: t.outputPath("1c-scheduling-filled.png") });
      await page.locator("#teamCalendar").screenshot({ path: t.outputPath("1d-teamcal-filled.png") });
      await axe(page, t, "/admin/settings filled");
      await page.getByRole("button", { name: "Konfiguration speichern" }).click();
      const ok = page.getByText("Konfiguration erfolgreich gespeichert!").first();
      await expect.soft(ok).toBeVisible();
      await shot(page, t, "1e-saved");
      // Blocked range end before start
      await page.locator("#blocked-0-to").fill("2031-08-01");
      await page.getByRole("button", { name: "Konfiguration speichern" }).click();
      await page.waitForLoadState("load");
      await shot(page, t, "1f-blocked-error");
      const bto = page.locator("#blocked-0-to");
      console.log(`INFO blocked error: invalid=${await bto.getAttribute("aria-invalid")} focused=${await page.evaluate(() => document.activeElement?.id)}`);
      // Cleanup: team calendar
      await page.goto("/admin/settings#teamCalendar");
      if (javaScriptEnabled) await waitForHydration(page);
      await page.getByLabel("Fester Videoraum (https)").fill("");
      await page.getByRole("button", { name: "Kalender 1 entfernen" }).click();
      await page.getByRole("button", { name: "Konfiguration speichern" }).click();
      await expect.soft(page.getByText("Konfiguration erfolgreich gespeichert!").first()).toBeVisible();
      await page.goto("/admin/settings#teamCalendar");
      console.log(`INFO after removal: keine Kalender visible=${await page.locator("#teamCalendar").getByText("Noch keine Kalender.").isVisible()} room=${await page.getByLabel("Fester Videoraum (https)").inputValue()}`);
      // Dashboard
      await page.goto("/admin");
      await shot(page, t, "1g-dashboard", true);
      await overflow(page, t, "/admin");
      await axe(page, t, "/admin dashboard");
      const body = await page.locator("main").innerText();
      console.log(`INFO dashboard scheduling text: ${body.split("\n").filter((l) => /Termin|Kalender|Arbeitszeit/.test(l)).join(" / ")}`);
    });

    test("2 visitor books and manages", async ({ page, seed, javaScriptEnabled }, t) => {
      seed.configuration({
        scheduling: {
          weeklyHours: { mon: AM_PM, tue: AM_PM, wed: AM_PM, thu: AM_PM, fri: FRI, sat: [], sun: [] },
          bufferAfterMinutes: 15,
          maxPerDay: 3,
          horizonDays: 14,
        },
        teamCalendar: { busyFeeds: [], videoUrl: ROOM },
      } as never);
      const tag = `${vp.width}${javaScriptEnabled ? "j" : "n"}${Math.random().toString(36).slice(2, 6)}`;
      const email = `nc-${tag}@example.com`;
      const success = await submitVisitorRequest(page, `Nina Neu ${tag}`, email, javaScriptEnabled);
      if (javaScriptEnabled) {
        await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog).toBeVisible();
        await shot(page, t, "2a-dialog");
        console.log(`INFO dialog hint: ${(await dialog.innerText()).split("\n").filter((l) => /Termin|Wochen|verfüg/.test(l)).join(" / ")}`);
        await axe(page, t, "booking dialog");
        await dialog.locator("button[aria-pressed]:not([disabled])").first().click();
        const buttons = dialog.locator(".grid-cols-3 button");
        await expect(buttons.first()).toBeVisible();
        const times = (await buttons.allTextContents()).map((x) => x.trim());
        console.log(`INFO dialog times: ${times.join(",")}`);
        await shot(page, t, "2b-dialog-times");
        await buttons.first().click();
        await dialog.getByRole("button", { name: "Termin verbindlich buchen" }).click();
        await expect(dialog.getByText("Termin erfolgreich gebucht!")).toBeVisible();
        await shot(page, t, "2c-dialog-success");
        if (!(await dialog.innerText()).includes("meet.example.com")) note(t, "dialog success shows no video link");
        console.log(`INFO dialog success: ${(await dialog.innerText()).replace(/\n/g, " / ")}`);
      } else {
        await page.goto(`/termin?anfrage=${requestIdOf(email)}`);
        await shot(page, t, "2a-termin");
        await overflow(page, t, "/termin");
        await axe(page, t, "/termin");
        console.log(`INFO termin text: ${(await page.locator("main").innerText()).replace(/\n/g, " / ").slice(0, 600)}`);
        await page.locator("a[aria-label][href*='tag=']").first().click();
        const labels = page.locator("form label:has(input[name=startTime])");
        await expect(labels.first()).toBeVisible();
        const times = (await labels.allTextContents()).map((x) => x.trim());
        console.log(`INFO page times: ${times.join(",")}`);
        await shot(page, t, "2b-termin-times", true);
        await labels.first().click();
        await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
        await expect(page.getByText("Termin erfolgreich gebucht!")).toBeVisible();
        await shot(page, t, "2c-termin-success", true);
        if (!(await page.locator("main").innerText()).includes("meet.example.com")) note(t, "/termin success shows no video link");
        console.log(`INFO termin success: ${(await page.locator("main").innerText()).replace(/\n/g, " / ").slice(0, 600)}`);
      }
      const mail = await waitForMail(email, /^Dein Demo-Termin am/);
      if (!mail.text.includes("meet.example.com")) note(t, "confirmation mail has no video link");
      const m = mail.text.match(/https?:\/\/\S+(\/termin\/verwalten\?token=[\w.-]+)/);
      if (!m?.[1]) return note(t, "no manage link in mail");
      await page.goto(m[1]);
      if (javaScriptEnabled) await waitForHydration(page);
      await shot(page, t, "2d-manage", true);
      await overflow(page, t, "manage");
      await axe(page, t, "manage");
      const mt = await page.locator("main").innerText();
      if (!mt.includes("meet.example.com")) note(t, "manage page shows no video link");
      console.log(`INFO manage: ${mt.replace(/\n/g, " / ").slice(0, 600)}`);
    });

    test("3 admin appointments", async ({ page, loginAsNew, seed, javaScriptEnabled }, t) => {
      const name = `Olaf Karte ${vp.width}${javaScriptEnabled ? "j" : "n"}${Date.now()}`;
      const requestId = await seed.request({ name });
      const start = new Date(Date.now() + 5 * 86_400_000);
      start.setUTCHours(8, 0, 0, 0);
      const a = seed.appointment({ name: "Demo-Termin", startTime: start, status: "ACCEPTED", requestId });
      await loginAsNew(page);
      await page.goto(`/admin/appointments?search=${encodeURIComponent(name)}`);
      if (javaScriptEnabled) await waitForHydration(page);
      await shot(page, t, "3a-list", true);
      await overflow(page, t, "/admin/appointments");
      await axe(page, t, "/admin/appointments");
      const card = page.locator(`#termin-${a.id}`);
      console.log(`INFO card: ${(await card.innerText()).replace(/\n/g, " / ")}`);
      if (/N\/A|Aktualisieren/.test(await card.innerText())) note(t, "card still shows N/A or Aktualisieren");
      await card.getByRole("link", { name: /absagen/i }).first().click();
      await expect(page).toHaveURL(/absagen|cancel|schritt/i).catch(() => console.log(`INFO url after Absagen: ${page.url()}`));
      await page.waitForLoadState("load");
      await shot(page, t, "3b-cancel-question");
      console.log(`INFO focus after Absagen: ${await page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent?.slice(0, 60)}`)}`);
    });
  });
}
