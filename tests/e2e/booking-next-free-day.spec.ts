import { addDays, addMonths, berlinToday, monthLabel, monthOf } from "~/lib/booking-calendar";
import { submitVisitorRequest } from "./fidelity-helpers";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

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

const JUMP = /^Zum nächsten freien Tag: /;

/** The jump's day on the server-rendered demo booking page (an admin's session). */
async function pageJumpDay(page: import("@playwright/test").Page) {
  await page.goto("/termin?demo=1");
  const href = (await page.getByRole("link", { name: JUMP }).getAttribute("href")) ?? "";
  return new URL(href, "http://x").searchParams.get("tag");
}

// Review of ADR 304: blocked weeks are skipped alike by the page, the visitor's dialog and the
// admin's demo dialog (which read the admin's whole configuration, without the closed days).
test("blocked weeks: page, visitor dialog and the admin's demo dialog name the same day after them", async ({
  page,
  loginAsNew,
  seed,
  javaScriptEnabled,
}) => {
  const from = addDays(berlinToday(), 1);
  const to = addDays(from, 45);
  seed.configuration({
    scheduling: { blockedDays: [{ from, to, note: "Betriebsferien" }] },
  } as never);
  await page.setViewportSize(PHONE);
  const jumpText = async (scope: import("@playwright/test").Locator) => {
    const jump = scope.getByRole("button", { name: JUMP });
    await expect(jump).toBeVisible();
    return ((await jump.textContent()) ?? "").replace("Zum nächsten freien Tag: ", "").trim();
  };
  let visitorDialog: string | null = null;
  if (javaScriptEnabled) {
    const tag = Math.random().toString(36).slice(2, 8);
    const success = await submitVisitorRequest(
      page,
      `Bea Block ${tag}`,
      `bea-${tag}@example.com`,
      true,
    );
    await success.getByRole("button", { name: "Demo-Termin buchen" }).click();
    visitorDialog = await jumpText(page.getByRole("dialog"));
  }
  await loginAsNew(page);
  const day = await pageJumpDay(page);
  expect(day, "the booking page offers a jump").not.toBeNull();
  expect((day as string) > to, `${day} lies after the block (${to})`).toBe(true);
  const label = (await page.getByRole("link", { name: JUMP }).textContent())
    ?.replace("Zum nächsten freien Tag: ", "")
    .trim();
  if (javaScriptEnabled) {
    expect(visitorDialog).toBe(label);
    await page.goto("/admin/settings");
    await waitForHydration(page);
    await page.getByRole("button", { name: "Buchungsdialog testen (Demo)" }).click();
    expect(await jumpText(page.getByRole("dialog"))).toBe(label);
  }
});

test("a month at the calendar's end (?monat=9999-12) is no server error @static", async ({
  page,
  loginAsNew,
}) => {
  await loginAsNew(page);
  const res = await page.request.get("/termin?demo=1&monat=9999-12");
  expect(res.status()).toBe(200);
});
