import { signIn } from "./auth";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

// The full-screen request view lists the request's appointments (ADR 342): time, status, video
// link, and for an upcoming built-in booking the card's "Verschieben" and "Absagen" — answered on
// the view itself. At 390 and 1280 px, with and without JS.
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];

/** Next week's Tuesday at 10:00 Berlin time (CET in winter, CEST in summer: the UTC hour differs). */
function nextWeekTuesday() {
  const day = new Date();
  day.setUTCDate(day.getUTCDate() + ((9 - day.getUTCDay()) % 7) + 7);
  return new Date(`${day.toISOString().slice(0, 10)}T09:00:00Z`);
}

for (const size of SIZES) {
  test(`the full-screen view lists the request's demo: time, status, video link, move and cancel (${size.width})`, async ({
    page,
    seed,
    javaScriptEnabled,
  }, testInfo) => {
    await page.setViewportSize(size);
    const id = await seed.request({ name: `Termin-Kundin ${size.width}` });
    const start = nextWeekTuesday();
    const booking = seed.appointment({
      name: "Demo-Termin",
      startTime: start,
      status: "ACCEPTED",
      requestId: id,
    });
    await signIn(page, await seed.admin(), { to: `/admin/requests?requestId=${id}` });
    if (javaScriptEnabled) await waitForHydration(page);
    const view = page.locator("[data-fullscreen]");
    const section = view.locator("[data-request-appointments]");
    await expect(section.getByRole("heading", { name: "Termine (1)" })).toBeVisible();
    const card = section.locator(`#termin-${booking.id}`);
    await card.scrollIntoViewIfNeeded();
    await expect(card).toBeInViewport();
    const when = new Intl.DateTimeFormat("de-DE", {
      timeZone: "Europe/Berlin",
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    }).format(start);
    await expect(card).toContainText(`${when} Uhr`);
    await expect(card).toContainText("Bestätigt");
    await expect(card).toContainText("Videocall: noch kein Link");
    // No promise of a mail or a link that will not come (the location is just "Videocall").
    await expect(card).not.toContainText("Link folgt per E-Mail");
    await expect(
      card.getByRole("link", { name: `Termin am ${when} Uhr verschieben` }),
    ).toHaveAttribute(
      "href",
      new RegExp(`/admin/appointments/${booking.id}/verschieben\\?zurueck=%2Fadmin%2Frequests`),
    );
    await page.screenshot({ path: testInfo.outputPath(`request-appointments-${size.width}.png`) });

    // "Absagen": asked once on the card, answered on this view.
    await card.getByRole("link", { name: `Termin am ${when} Uhr absagen` }).click();
    const question = card.getByText(`Termin am ${when} Uhr wirklich absagen?`);
    await expect(question).toBeInViewport();
    await expect(question).toContainText("Der Kunde erhält die Absage per E-Mail.");
    await card.getByRole("button", { name: "Ja, Termin absagen" }).click();
    await expect(
      page.getByText("Termin abgesagt – der Kunde erhält die Absage per E-Mail."),
    ).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`requestId=${id}`));
    const cancelled = page.locator("[data-fullscreen]").locator(`#termin-${booking.id}`);
    await expect(cancelled).toContainText("Abgesagt");
    await expect(cancelled.getByRole("link", { name: /verschieben/ })).toHaveCount(0);
  });
}
