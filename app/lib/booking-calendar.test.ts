import { describe, expect, it } from "vitest";
import {
  addMonths,
  berlinToday,
  bookingDaysHint,
  bookingHint,
  calendarGrid,
  dayBoundsUtc,
  firstBookableDay,
  isIsoMonth,
  isSelectableDay,
  lastBookableDay,
  laterDay,
  monthLabel,
  nextOpenDay,
  WEEKDAY_LABELS,
  WEEKDAYS_MON_FRI,
} from "./booking-calendar";

describe("calendarGrid", () => {
  it("has 42 cells starting on the Sunday on or before the 1st", () => {
    const cells = calendarGrid("2026-12", "2026-12-01", "2026-11-22");
    expect(cells).toHaveLength(42);
    expect(cells[0].day).toBe("2026-11-29");
    expect(cells[2].day).toBe("2026-12-01");
    expect(cells.filter((c) => c.inMonth)).toHaveLength(31);
    expect(WEEKDAY_LABELS).toEqual(["So", "Mo", "Di", "Mi", "Do", "Fr", "Sa"]);
  });

  it("makes weekends, other months and days before the first bookable day unselectable", () => {
    const cells = calendarGrid("2026-12", "2026-12-03", "2026-12-01");
    const byDay = Object.fromEntries(cells.map((c) => [c.day, c]));
    expect(byDay["2026-12-02"].selectable).toBe(false); // before the first bookable day
    expect(byDay["2026-12-03"].selectable).toBe(true); // Thursday
    expect(byDay["2026-12-05"].selectable).toBe(false); // Saturday
    expect(byDay["2026-12-06"].selectable).toBe(false); // Sunday
    expect(byDay["2027-01-04"].selectable).toBe(false); // next month, although a Monday
    expect(isSelectableDay("2026-12-07", "2026-12", "2026-12-03")).toBe(true);
  });

  it("names months in German and steps across years", () => {
    expect(monthLabel("2026-12")).toBe("Dezember 2026");
    expect(addMonths("2026-12", 1)).toBe("2027-01");
    expect(addMonths("2027-01", -1)).toBe("2026-12");
  });
});

describe("firstBookableDay", () => {
  it("is today (Berlin) at midnight plus the lead days plus one day; hours do not count", () => {
    expect(firstBookableDay(1, new Date("2026-11-22T10:00:00Z"))).toBe("2026-11-24");
    expect(firstBookableDay(0, new Date("2026-11-22T10:00:00Z"))).toBe("2026-11-23");
  });
  it("uses the Berlin date, not UTC, around midnight", () => {
    // 23:30 UTC on 22 Nov is already 23 Nov in Berlin (UTC+1).
    expect(berlinToday(new Date("2026-11-22T23:30:00Z"))).toBe("2026-11-23");
    expect(firstBookableDay(1, new Date("2026-11-22T23:30:00Z"))).toBe("2026-11-25");
  });
});

describe("dayBoundsUtc across DST changes", () => {
  it("the last Sunday of March has 23 hours", () => {
    const { start, end } = dayBoundsUtc("2026-03-29");
    expect(start.toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(end.getTime() - start.getTime() + 1).toBe(23 * 3600_000);
  });
  it("the last Sunday of October has 25 hours", () => {
    const { start, end } = dayBoundsUtc("2026-10-25");
    expect(start.toISOString()).toBe("2026-10-24T22:00:00.000Z");
    expect(end.getTime() - start.getTime() + 1).toBe(25 * 3600_000);
  });
  it("a summer day starts at 22:00 UTC the day before, a winter day at 23:00", () => {
    expect(dayBoundsUtc("2026-07-01").start.toISOString()).toBe("2026-06-30T22:00:00.000Z");
    expect(dayBoundsUtc("2026-12-01").start.toISOString()).toBe("2026-11-30T23:00:00.000Z");
  });
});

describe("bookingDuration", () => {
  it("uses the event type's minutes, else 30 (the display default 45 is never booked)", async () => {
    const { bookingDuration, DEFAULT_DISPLAY_DURATION } = await import("./booking-calendar");
    expect(bookingDuration(60)).toBe(60);
    expect(bookingDuration(null)).toBe(30);
    expect(bookingDuration(0)).toBe(30);
    expect(bookingDuration(undefined)).not.toBe(DEFAULT_DISPLAY_DURATION);
  });
});

describe("the booking horizon in the calendar", () => {
  it("greys out the days after the horizon's last day and names it in the hint", () => {
    const last = lastBookableDay(14, "2026-12-01");
    expect(last).toBe("2026-12-15");
    const cells = calendarGrid("2026-12", "2026-12-02", "2026-12-01", undefined, [], last);
    const selectable = (day: string) => cells.find((c) => c.day === day)?.selectable;
    expect(selectable("2026-12-15")).toBe(true);
    expect(selectable("2026-12-16")).toBe(false);
    expect(bookingHint([1, 2, 3, 4, 5], last)).toBe(
      "Termine nur Mo-Fr verfügbar · Keine Termine am Wochenende · Buchbar bis 15.12.2026",
    );
  });

  it("without a horizon: every later day stays selectable and the hint is the spec's", () => {
    expect(lastBookableDay(0, "2026-12-01")).toBeNull();
    expect(bookingHint([1, 2, 3, 4, 5], null)).toBe(bookingDaysHint());
  });
});

describe("nextOpenDay (where a month without a free day points)", () => {
  it("skips closed weekdays and closed days", () => {
    // 2026-11-28 is a Saturday; Monday the 30th is closed.
    expect(nextOpenDay("2026-11-28", WEEKDAYS_MON_FRI, ["2026-11-30"])).toBe("2026-12-01");
    expect(nextOpenDay("2026-12-01")).toBe("2026-12-01");
    // Only Wednesdays: the next one.
    expect(nextOpenDay("2026-12-24", [3])).toBe("2026-12-30");
  });

  it("is null past the horizon, with no open weekday, or beyond the limit", () => {
    expect(nextOpenDay("2026-12-05", WEEKDAYS_MON_FRI, [], "2026-12-06")).toBeNull();
    expect(nextOpenDay("2026-12-05", WEEKDAYS_MON_FRI, [], "2026-12-07")).toBe("2026-12-07");
    expect(nextOpenDay("2026-12-01", [])).toBeNull();
    expect(nextOpenDay("2026-12-01", [1], [], null, 3)).toBeNull();
  });
});

describe("months the calendar can show", () => {
  it("ends at 9998: a month's grid reaches into the next, and the year 10000 has no ISO day", () => {
    expect(isIsoMonth("9998-12")).toBe(true);
    expect(isIsoMonth("9999-01")).toBe(false);
    expect(isIsoMonth("1969-12")).toBe(false);
  });

  it("searches the next free day from the later of the first bookable day and the month's start", () => {
    expect(laterDay("2026-12-02", "2027-02-01")).toBe("2027-02-01");
    expect(laterDay("2026-12-02", "2026-10-01")).toBe("2026-12-02");
    // A fully blocked February points to March's first open day.
    const february = Array.from(
      { length: 28 },
      (_, i) => `2027-02-${String(i + 1).padStart(2, "0")}`,
    );
    expect(nextOpenDay(laterDay("2026-12-02", "2027-02-01"), WEEKDAYS_MON_FRI, february)).toBe(
      "2027-03-01",
    );
  });
});
