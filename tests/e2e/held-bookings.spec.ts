// Held bookings (ADR 355), with and without JavaScript at 390×844 and 1280×800: a visitor whose
// request waits in the spam quarantine books exactly as anyone else (the same dialog or page, the
// same success), while behind it the booking only notes its slot (the day's cap is 0 here). When
// somebody else takes that slot before the release, the admin's "Freigeben" says "Termin nicht
// mehr frei" and the request's row in the list shows it.
import { getConfiguration } from "~/server/configuration/configuration.server";
import { signIn } from "./auth";
import { requestIdOf, submitVisitorRequest } from "./fidelity-helpers";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { appointmentOf, quarantineRequest } from "./seed";

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const;

const pad = (id: number) => String(id).padStart(4, "0");

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.width}×${viewport.height}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("a held request books as anyone else; a slot taken before the release reads 'Termin nicht mehr frei'", async ({
      page,
      javaScriptEnabled,
      browser,
      seed,
    }, testInfo) => {
      // No held booking holds a slot today: this one is only noted (ADR 355).
      seed.configuration({ spam: { ...getConfiguration().spam, heldBookingsPerDay: 0 } });
      const tag = Math.random().toString(36).slice(2, 8);
      const name = `Hanna Gehalten ${tag}`;
      const email = `hanna-${tag}@example.com`;
      const success = await submitVisitorRequest(page, name, email, javaScriptEnabled);
      const id = requestIdOf(email);
      quarantineRequest(id);

      // The visitor's flow, unchanged.
      if (javaScriptEnabled) {
        await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
        const dialog = page.getByRole("dialog");
        await expect(dialog).toContainText(`Für: ${name}`);
        await dialog.getByRole("button", { name: "Nächster Monat" }).click();
        await dialog.locator("button[aria-pressed]:not([disabled])").first().click();
        const times = dialog.locator(".grid-cols-3 button");
        await expect(times.first()).toBeVisible();
        await times.nth(1).click();
        await dialog.getByRole("button", { name: "Termin verbindlich buchen" }).click();
        await expect(dialog).toContainText("Termin erfolgreich gebucht!");
        await expect(dialog).toContainText(
          "Du erhältst eine Bestätigungs-E-Mail mit allen Details.",
        );
        await expect(dialog.getByText("Termin erfolgreich gebucht!")).toBeInViewport();
      } else {
        await success.getByRole("link", { name: "Demo-Termin buchen" }).click();
        await expect(page).toHaveURL(/\/termin\?anfrage=\d+/);
        await expect(page.getByText(`Für: ${name}`)).toBeVisible();
        await page.getByRole("link", { name: "Nächster Monat" }).click();
        await page.locator("a[aria-label][href*='tag=']").first().click();
        const labels = page.locator("form label:has(input[name=startTime])");
        await expect(labels.first()).toBeVisible();
        await labels.nth(1).click();
        await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
        await expect(page.getByText("Termin erfolgreich gebucht!")).toBeVisible();
        await expect(page.getByText("Termin erfolgreich gebucht!")).toBeInViewport();
      }
      await page.screenshot({ path: testInfo.outputPath(`visitor-booked-${viewport.name}.png`) });
      const held = appointmentOf(id);
      expect(held).toMatchObject({ status: "HELD", heldBooking: "waits" });

      // Somebody else books that very slot meanwhile (it was only noted).
      seed.appointment({ name: "Demo-Termin", startTime: held.startTime, status: "ACCEPTED" });

      const admin = await (
        await browser.newContext({
          javaScriptEnabled,
          locale: "de-DE",
          timezoneId: "Europe/Berlin",
          viewport: { width: viewport.width, height: viewport.height },
        })
      ).newPage();
      await signIn(admin, await seed.admin(), { to: `/admin/requests?tab=quarantine&q=${tag}` });
      if (javaScriptEnabled) await waitForHydration(admin);
      await admin
        .getByRole("button", { name: `Anfrage #${pad(id)} von ${name} freigeben` })
        .click();
      const toast = admin.locator('[aria-live="polite"]').getByText(/Termin nicht mehr frei/);
      await expect(toast).toBeVisible();
      await expect(toast).toBeInViewport();
      await expect(toast).toContainText("Die Eingangsbestätigung bietet");
      await admin.screenshot({ path: testInfo.outputPath(`released-toast-${viewport.name}.png`) });
      expect(appointmentOf(id)).toMatchObject({ status: "CANCELLED", heldBooking: "gone" });

      // The released request's row says it.
      await admin.goto(`/admin/requests?q=${tag}`);
      const row = admin.locator("[data-slot-gone]");
      await expect(row).toHaveCount(1);
      await expect(row).toBeVisible();
      await expect(row).toBeInViewport();
      await expect(row).toContainText("Termin nicht mehr frei");
      await admin.screenshot({ path: testInfo.outputPath(`released-row-${viewport.name}.png`) });

      // So does its card on Termine.
      await admin.goto(`/admin/appointments?search=${encodeURIComponent(name)}`);
      const card = admin.getByTestId("appointment-card").filter({ hasText: name });
      await expect(card).toHaveCount(1);
      await expect(card).toContainText("Abgesagt");
      const notice = card.locator("[data-slot-gone]");
      await expect(notice).toContainText("Termin nicht mehr frei");
      await expect(notice).toBeVisible();
      // A list below the filters: on the phone the admin scrolls to the card.
      await notice.scrollIntoViewIfNeeded();
      await admin.screenshot({ path: testInfo.outputPath(`released-card-${viewport.name}.png`) });
    });
  });
}

test("the held bookings' daily cap in 'Spam-Schutz und Kosten': out of range refused at the field, saved in range (390 px)", async ({
  page,
  loginAsNew,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  seed.configuration({ spam: { ...getConfiguration().spam, heldBookingsPerDay: 3 } });
  await page.setViewportSize({ width: 390, height: 844 });
  await loginAsNew(page);
  await page.goto("/admin/settings");
  if (javaScriptEnabled) await waitForHydration(page);
  const section = page.locator("#spam");
  const cap = section.getByLabel(
    "Termine von Anfragen in der Prüfung, die pro Tag einen Platz belegen, höchstens",
  );
  await expect(cap).toHaveValue("3");
  await cap.fill("51");
  await page.getByRole("heading", { name: "KI-System-Prompt" }).scrollIntoViewIfNeeded();
  // The input carries the range (min/max from NUMBER_SETTINGS): the browser's own check stops the
  // post and focuses the field, with and without JS; the server's German refusal of a post that
  // skips it is pinned in app/lib/setting-ranges.test.ts.
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(cap).toBeFocused();
  expect(await cap.evaluate((el) => (el as HTMLInputElement).validity.rangeOverflow)).toBe(true);
  await expect(cap).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("held-cap-refused-390.png") });
  await cap.fill("2");
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
  await expect(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible({
    timeout: 30_000,
  });
  expect(getConfiguration().spam.heldBookingsPerDay).toBe(2);
  await page.reload();
  await expect(cap).toHaveValue("2");
  await section.screenshot({ path: testInfo.outputPath("held-cap-saved-390.png") });
});
