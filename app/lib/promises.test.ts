import { describe, expect, it } from "vitest";
import type { IsoDay } from "./booking-calendar";
import {
  calendarDaysLater,
  DEFAULT_PROMISES,
  keptInTime,
  PromiseSettingsSchema,
  promiseDueTimes,
  promiseState,
  promiseText,
  withinDays,
  workingDaysLater,
} from "./promises";

/** A Berlin wall-clock time written with its offset, as an instant. */
const at = (iso: string) => new Date(iso);
const none = () => false;
const closedOn =
  (...days: IsoDay[]) =>
  (day: IsoDay) =>
    days.includes(day);
/** The due time of a whole second: its last millisecond. */
const end = (iso: string) => new Date(new Date(iso).getTime() + 999).toISOString();

describe("workingDaysLater (the first-contact promise)", () => {
  // [received, n, closed days, due]
  const cases: [string, string, number, IsoDay[], string][] = [
    [
      "Monday afternoon → Tuesday, same time",
      "2026-12-07T15:00:00+01:00",
      1,
      [],
      "2026-12-08T15:00:00+01:00",
    ],
    [
      "Friday afternoon → Monday (weekend skipped)",
      "2026-12-04T15:00:00+01:00",
      1,
      [],
      "2026-12-07T15:00:00+01:00",
    ],
    [
      "Saturday → the end of Monday",
      "2026-12-05T10:00:00+01:00",
      1,
      [],
      "2026-12-07T23:59:59+01:00",
    ],
    ["Sunday → the end of Monday", "2026-12-06T22:00:00+01:00", 1, [], "2026-12-07T23:59:59+01:00"],
    [
      "a submission at 23:59 on Monday → Tuesday 23:59",
      "2026-12-07T23:59:00+01:00",
      1,
      [],
      "2026-12-08T23:59:00+01:00",
    ],
    [
      "a submission at 23:59 on Friday → Monday 23:59",
      "2026-12-04T23:59:30+01:00",
      1,
      [],
      "2026-12-07T23:59:30+01:00",
    ],
    [
      "a blocked day is skipped",
      "2026-12-07T10:00:00+01:00",
      1,
      ["2026-12-08"],
      "2026-12-09T10:00:00+01:00",
    ],
    [
      "a blocked range is skipped",
      "2026-12-07T10:00:00+01:00",
      2,
      ["2026-12-08", "2026-12-09", "2026-12-10"],
      "2026-12-14T10:00:00+01:00",
    ],
    [
      "received on a holiday → the end of the next working day",
      "2026-12-25T09:00:00+01:00",
      1,
      ["2026-12-25", "2026-12-26", "2026-12-31", "2027-01-01"],
      "2026-12-28T23:59:59+01:00",
    ],
    [
      "Easter (Good Friday and Easter Monday closed)",
      "2026-04-02T10:00:00+02:00",
      1,
      ["2026-04-03", "2026-04-06"],
      "2026-04-07T10:00:00+02:00",
    ],
    [
      "into summer time: the wall clock stays",
      "2026-03-27T10:00:00+01:00",
      1,
      [],
      "2026-03-30T10:00:00+02:00",
    ],
    [
      "out of summer time: the wall clock stays",
      "2026-10-23T10:00:00+02:00",
      1,
      [],
      "2026-10-26T10:00:00+01:00",
    ],
  ];
  it.each(cases)("%s", (_name, received, n, closed, due) => {
    expect(workingDaysLater(at(received), n, closedOn(...closed)).toISOString()).toBe(end(due));
  });

  // N = 1..10 from Monday 7 December 2026, 10:00, with 24 and 25 December closed.
  const fromMonday = [
    "2026-12-08",
    "2026-12-09",
    "2026-12-10",
    "2026-12-11",
    "2026-12-14",
    "2026-12-15",
    "2026-12-16",
    "2026-12-17",
    "2026-12-18",
    "2026-12-21",
  ];
  it.each(fromMonday.map((day, i) => [i + 1, day]))("N = %i → %s 10:00", (n, day) => {
    expect(workingDaysLater(at("2026-12-07T10:00:00+01:00"), n as number, none).toISOString()).toBe(
      end(`${day}T10:00:00+01:00`),
    );
  });
  it("N = 10 across Christmas skips the closed days", () => {
    const closed = closedOn("2026-12-24", "2026-12-25", "2026-12-31", "2027-01-01");
    // 15 Dec + 10 working days: 16 17 18 21 22 23 28 29 30 4 Jan.
    expect(workingDaysLater(at("2026-12-15T12:00:00+01:00"), 10, closed).toISOString()).toBe(
      end("2027-01-04T12:00:00+01:00"),
    );
  });
  it("a closed-day rule that closes every day falls back to calendar days (no endless search)", () => {
    expect(workingDaysLater(at("2026-12-07T10:00:00+01:00"), 1, () => true).toISOString()).toBe(
      end("2026-12-08T10:00:00+01:00"),
    );
  });
});

describe("calendarDaysLater (the trial promise: N × 24 h on the Berlin clock)", () => {
  const cases: [string, string, number, string][] = [
    ["three days", "2026-12-07T15:00:00+01:00", 3, "2026-12-10T15:00:00+01:00"],
    [
      "over a weekend (calendar days count)",
      "2026-12-04T15:00:00+01:00",
      3,
      "2026-12-07T15:00:00+01:00",
    ],
    ["a submission at 23:59", "2026-12-04T23:59:00+01:00", 3, "2026-12-07T23:59:00+01:00"],
    [
      "into summer time: 71 hours, same wall clock",
      "2026-03-27T10:00:00+01:00",
      3,
      "2026-03-30T10:00:00+02:00",
    ],
    [
      "out of summer time: 73 hours, same wall clock",
      "2026-10-23T10:00:00+02:00",
      3,
      "2026-10-26T10:00:00+01:00",
    ],
    [
      "a skipped hour (02:30 on 29 March) is the hour after",
      "2026-03-26T02:30:00+01:00",
      3,
      "2026-03-29T03:30:00+02:00",
    ],
    [
      "a doubled hour (02:30 on 25 October) is the first",
      "2026-10-22T02:30:00+02:00",
      3,
      "2026-10-25T02:30:00+02:00",
    ],
    ["over the new year", "2026-12-30T08:15:00+01:00", 3, "2027-01-02T08:15:00+01:00"],
  ];
  it.each(cases)("%s", (_name, received, n, due) => {
    expect(calendarDaysLater(at(received), n).toISOString()).toBe(end(due));
  });
  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])("N = %i", (n) => {
    const due = calendarDaysLater(at("2026-12-07T10:00:00+01:00"), n);
    expect(due.toISOString()).toBe(end(`2026-12-${String(7 + n).padStart(2, "0")}T10:00:00+01:00`));
  });
  it("keeps the second, drops the milliseconds (kept is decided to the second)", () => {
    expect(calendarDaysLater(at("2026-12-07T10:00:00.250+01:00"), 1).toISOString()).toBe(
      "2026-12-08T09:00:00.999Z",
    );
  });
});

describe("promiseDueTimes", () => {
  const friday = at("2026-12-04T15:00:00+01:00");
  it("by default: the first contact within one working day, the trial within 3 × 24 h", () => {
    const due = promiseDueTimes(friday, DEFAULT_PROMISES, none);
    expect(due.contactDueAt.toISOString()).toBe(end("2026-12-07T15:00:00+01:00"));
    expect(due.trialDueAt.toISOString()).toBe(end("2026-12-07T15:00:00+01:00"));
  });
  it('with "Werktage" the trial counts working days too', () => {
    const settings = { ...DEFAULT_PROMISES, trialWorkingDays: true };
    const due = promiseDueTimes(friday, settings, closedOn("2026-12-08"));
    expect(due.trialDueAt.toISOString()).toBe(end("2026-12-10T15:00:00+01:00"));
    expect(due.contactDueAt.toISOString()).toBe(end("2026-12-07T15:00:00+01:00"));
  });
  it("N for both", () => {
    const due = promiseDueTimes(
      friday,
      { contactDays: 2, trialDays: 10, trialWorkingDays: false },
      none,
    );
    expect(due.contactDueAt.toISOString()).toBe(end("2026-12-08T15:00:00+01:00"));
    expect(due.trialDueAt.toISOString()).toBe(end("2026-12-14T15:00:00+01:00"));
  });
  it("the settings are clamped to 1..10", () => {
    expect(PromiseSettingsSchema.parse({ contactDays: 0, trialDays: 99 })).toEqual({
      contactDays: 1,
      trialDays: 10,
      trialWorkingDays: false,
    });
  });
});

describe("promise states and texts", () => {
  const now = at("2026-12-07T12:00:00+01:00");
  const p = (dueAt: string | null, doneAt: string | null = null) => ({
    dueAt: dueAt ? end(dueAt) : null,
    doneAt: doneAt ? new Date(doneAt).toISOString() : null,
  });
  const cases: [string, ReturnType<typeof p>, boolean, string, string][] = [
    ["due later today", p("2026-12-07T18:00:00+01:00"), true, "due", "fällig heute"],
    ["due tomorrow", p("2026-12-08T09:00:00+01:00"), true, "due", "fällig morgen"],
    ["due in two days", p("2026-12-09T09:00:00+01:00"), true, "due", "fällig in 2 Tagen"],
    [
      "overdue since this morning",
      p("2026-12-07T09:00:00+01:00"),
      true,
      "overdue",
      "überfällig seit heute",
    ],
    [
      "overdue since yesterday",
      p("2026-12-06T23:00:00+01:00"),
      true,
      "overdue",
      "überfällig seit 1 Tag",
    ],
    [
      "overdue since three days",
      p("2026-12-04T15:00:00+01:00"),
      true,
      "overdue",
      "überfällig seit 3 Tagen",
    ],
    [
      "kept in the last second",
      p("2026-12-07T09:00:00+01:00", "2026-12-07T09:00:00.990+01:00"),
      true,
      "kept",
      "eingehalten",
    ],
    [
      "late by a second",
      p("2026-12-07T09:00:00+01:00", "2026-12-07T09:00:01+01:00"),
      true,
      "late",
      "verspätet erledigt",
    ],
    ["closed without keeping it", p("2026-12-04T09:00:00+01:00"), false, "dropped", "entfallen"],
    ["no promise (held)", p(null), true, "none", ""],
  ];
  it.each(cases)("%s", (_name, promise, open, state, text) => {
    expect(promiseState(promise, now, open)).toBe(state);
    expect(promiseText(promise, now, open)).toBe(text);
  });
  it("kept is decided to the second", () => {
    const due = Date.parse("2026-12-07T08:00:00.999Z");
    expect(keptInTime(Date.parse("2026-12-07T08:00:00.999Z"), due)).toBe(true);
    expect(keptInTime(Date.parse("2026-12-07T08:00:01.000Z"), due)).toBe(false);
  });
});

describe("withinDays (the landing page's promise texts)", () => {
  it.each([
    [1, false, "innerhalb eines Tages"],
    [1, true, "innerhalb eines Werktags"],
    [3, false, "innerhalb von drei Tagen"],
    [3, true, "innerhalb von drei Werktagen"],
    [10, true, "innerhalb von zehn Werktagen"],
  ] as const)("%i, working days %s → %s", (n, working, text) => {
    expect(withinDays(n, working)).toBe(text);
  });
});
