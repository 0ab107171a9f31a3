import { addDays, addMonths, berlinToday, monthLabel, monthOf } from "~/lib/booking-calendar";
import { submitVisitorRequest } from "./fidelity-helpers";
import { expect, test } from "./fixtures";

// A visitor whose current month has no bookable day left (a month's end, a long lead time) is
// not left with a grey calendar: the calendar names it and jumps to the next free day, JS on
// (the dialog) and off (the booking page). The lead time is set so that this month is over.

const PHONE = { width: 390, height: 844 };
test.describe.configure({ timeout: 120_000 });

test("a month without a free day points to the next free day, which opens with its times", async ({
  page,
  seed,
  javaScriptEnabled,
}, testInfo) => {
  const today = berlinToday();
  const month = monthOf(today);
  const lastOfMonth = addDays(`${addMonths(month, 1)}-01`, -1);
  const daysLeft = Math.round((Date.parse(lastOfMonth) - Date.parse(today)) / 86_400_000);
  // The first bookable day is today + lead + 1: past this month's end.
  seed.configuration({ bookingLeadTime: { days: daysLeft + 1, hours: 0 } });
  await page.setViewportSize(PHONE);
  const tag = Math.random().toString(36).slice(2, 8);
  const success = await submitVisitorRequest(
    page,
    `Mona Monatsende ${tag}`,
    `mona-${tag}@example.com`,
    javaScriptEnabled,
  );
  const scope = javaScriptEnabled ? page.getByRole("dialog") : page.locator("main");
  if (javaScriptEnabled) await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
  else await success.getByRole("link", { name: "Demo-Termin buchen" }).click();

  await expect(scope.getByRole("heading", { name: monthLabel(month), exact: true })).toBeVisible();
  const note = scope.getByText(`Im ${monthLabel(month)} ist kein Tag mehr frei.`);
  await expect(note).toBeVisible();
  const jump = scope.getByRole(javaScriptEnabled ? "button" : "link", {
    name: /^Zum nächsten freien Tag: /,
  });
  await jump.scrollIntoViewIfNeeded();
  await expect(jump).toBeInViewport();
  await page.screenshot({ path: testInfo.outputPath("no-free-day-390.png") });
  const label = ((await jump.textContent()) ?? "").replace("Zum nächsten freien Tag: ", "").trim();
  await jump.click();

  // The next month with that day chosen, its times offered; the jump's note is gone.
  await expect(
    scope.getByRole("heading", { name: monthLabel(addMonths(month, 1)), exact: true }),
  ).toBeVisible();
  await expect(note).toHaveCount(0);
  const dayHeading = scope.getByRole("heading", { name: label });
  await expect(dayHeading).toBeVisible();
  if (javaScriptEnabled) {
    // The focus is on the chosen day (the button that was pressed went away).
    await expect(scope.getByRole("button", { name: label })).toBeFocused();
    await expect(scope.getByRole("button", { name: label })).toHaveAttribute(
      "aria-pressed",
      "true",
    );
    const times = scope.locator(".grid-cols-3 button");
    await expect(times.first()).toBeVisible();
    await times.first().click();
    await scope.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    await expect(
      scope.getByRole("status").filter({ hasText: "Termin erfolgreich gebucht!" }),
    ).toBeVisible();
  } else {
    expect(new URL(page.url()).searchParams.get("monat")).toBe(addMonths(month, 1));
    // The page opens at the times (`#zeiten`), as a day's own link does.
    await expect(dayHeading).toBeInViewport();
    const times = page.locator("form label:has(input[name=startTime])");
    await expect(times.first()).toBeVisible();
    await times.first().click();
    await page.getByRole("button", { name: "Termin verbindlich buchen" }).click();
    const done = page.getByText("Termin erfolgreich gebucht!");
    await expect(done).toBeVisible();
    await expect(done).toBeInViewport();
  }
  await page.screenshot({ path: testInfo.outputPath("next-free-day-booked-390.png") });
});
