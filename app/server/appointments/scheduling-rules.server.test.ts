import { describe, expect, it } from "vitest";
import {
  type AvailabilityInput,
  DEFAULT_WEEKLY_HOURS,
  freeSlots,
  isFreeSlot,
  type WeeklyHours,
} from "~/lib/availability";
import { berlinTime } from "~/lib/booking-calendar";
import {
  availabilityRules,
  busyWindowDays,
  DEFAULT_SCHEDULING,
  SchedulingSettingsSchema,
} from "~/lib/scheduling-settings";
import { closedDays, closedDaysAhead } from "~/server/appointments/holidays.server";

const NOW = new Date("2026-11-02T10:00:00Z"); // Monday
const hhmm = (d: Date) =>
  new Intl.DateTimeFormat("de-DE", {
    hour: "2-digit",
    minute: "2-digit",
    timeZone: "Europe/Berlin",
  }).format(d);

function input(
  over: Partial<Omit<AvailabilityInput, "rules">> & {
    rules?: Partial<AvailabilityInput["rules"]>;
  } = {},
) {
  const { rules, ...rest } = over;
  return {
    day: "2026-11-04",
    durationMinutes: 30,
    leadTime: { days: 1, hours: 0 },
    now: NOW,
    closedDays: new Set<string>(),
    bookings: [],
    busy: [],
    ...rest,
    rules: { ...availabilityRules(DEFAULT_SCHEDULING), ...rules },
  } satisfies AvailabilityInput;
}
const times = (i: AvailabilityInput) => freeSlots(i).map(hhmm);
const at = (day: string, h: number, m = 0) => berlinTime(day, h, m);
const booking = (day: string, h: number, m: number, minutes = 30) => ({
  start: at(day, h, m),
  end: new Date(at(day, h, m).getTime() + minutes * 60_000),
});

describe("freeSlots: defaults reproduce the former week", () => {
  it("Mon–Fri 09:00–17:00 at the duration, nothing at weekends", () => {
    expect(times(input())).toHaveLength(16);
    expect(times(input())[0]).toBe("09:00");
    expect(times(input()).at(-1)).toBe("16:30");
    expect(times(input({ durationMinutes: 45 }))).toEqual([
      "09:00",
      "09:45",
      "10:30",
      "11:15",
      "12:00",
      "12:45",
      "13:30",
      "14:15",
      "15:00",
      "15:45",
    ]);
    expect(times(input({ day: "2026-11-07" }))).toEqual([]);
    expect(times(input({ day: "2026-11-08" }))).toEqual([]);
  });
});

describe("freeSlots: the week's rules", () => {
  const lunch: WeeklyHours = {
    ...DEFAULT_WEEKLY_HOURS,
    wed: [
      { from: "09:00", to: "12:00" },
      { from: "13:00", to: "17:00" },
    ],
    sat: [{ from: "10:00", to: "11:00" }],
  };
  it.each([
    ["several intervals (lunch break)", { weeklyHours: lunch }, "2026-11-04", 14, "13:00", "12:00"],
    ["weekend hours", { weeklyHours: lunch }, "2026-11-07", 2, "10:30", "09:00"],
    ["a step of 15 minutes", { slotStepMinutes: 15 }, "2026-11-04", 31, "16:30", "16:45"],
    ["a step of 60 minutes", { slotStepMinutes: 60 }, "2026-11-04", 8, "16:00", "16:30"],
  ] as [string, Partial<AvailabilityInput["rules"]>, string, number, string, string][])(
    "%s",
    (_name, rules, day, count, present, absent) => {
      const list = times(input({ rules, day }));
      expect(list).toHaveLength(count);
      expect(list).toContain(present);
      expect(list).not.toContain(absent);
    },
  );

  it("bookings block their slot, buffers the neighbours (after of the earlier, before of the later)", () => {
    const bookings = [booking("2026-11-04", 11, 0)];
    expect(times(input({ bookings }))).not.toContain("11:00");
    expect(times(input({ bookings }))).toContain("10:30");
    expect(times(input({ bookings }))).toContain("11:30");
    const buffered = times(
      input({ bookings, rules: { bufferBeforeMinutes: 15, bufferAfterMinutes: 15 } }),
    );
    expect(buffered).not.toContain("10:30");
    expect(buffered).not.toContain("11:30");
    expect(buffered).toContain("10:00");
    expect(buffered).toContain("12:00");
    // A booking of another length blocks every overlapping start.
    const long = times(input({ bookings: [booking("2026-11-04", 10, 15, 60)] }));
    expect(long).not.toContain("10:00");
    expect(long).not.toContain("11:00");
    expect(long).toContain("11:30");
  });

  it("the daily maximum closes the day, counting only that day's bookings", () => {
    const bookings = [
      booking("2026-11-04", 9, 0),
      booking("2026-11-04", 15, 0),
      booking("2026-11-05", 9, 0),
    ];
    expect(times(input({ bookings, rules: { maxPerDay: 2 } }))).toEqual([]);
    expect(times(input({ bookings, rules: { maxPerDay: 3 } }))).toHaveLength(14);
    expect(times(input({ bookings, day: "2026-11-05", rules: { maxPerDay: 2 } }))).toHaveLength(15);
  });

  // The booking being moved (`exclude`, its id) leaves its old time: it blocks neither its slot,
  // nor its buffers' neighbours, nor a place in its day's maximum; other bookings still do.
  const moving = { id: 7, ...booking("2026-11-04", 10, 0) };
  const other = { id: 8, ...booking("2026-11-04", 14, 0) };
  const buffers = { bufferBeforeMinutes: 30, bufferAfterMinutes: 30 };
  it.each([
    // [what, exclude, rules, present, absent]
    [
      "no exclude: it and its buffers block two steps on each side",
      undefined,
      buffers,
      ["11:30"],
      ["09:00", "09:30", "10:00", "10:30", "11:00"],
    ],
    [
      "excluded: one step later is free despite the buffers",
      7,
      buffers,
      ["09:30", "10:00", "10:30"],
      ["13:30", "14:00", "14:30"],
    ],
    [
      "excluded: another booking's buffers still block",
      7,
      buffers,
      ["12:30", "15:30"],
      ["13:30", "14:30"],
    ],
    ["an unknown id excludes nothing", 99, buffers, ["11:30"], ["09:30", "10:30", "11:00"]],
    [
      "no exclude: the day's maximum (2) is reached",
      undefined,
      { maxPerDay: 2 },
      [],
      ["09:00", "10:30", "16:30"],
    ],
    [
      "excluded: the moved booking does not count on its day",
      7,
      { maxPerDay: 2 },
      ["09:00", "10:00", "16:30"],
      ["14:00"],
    ],
  ] as const)("%s", (_what, exclude, rules, present, absent) => {
    const list = times(input({ bookings: [moving, other], exclude, rules }));
    for (const t of present) expect(list).toContain(t);
    for (const t of absent) expect(list).not.toContain(t);
    if (rules === buffers || exclude !== undefined) expect(list.length).toBeGreaterThan(0);
    else expect(list).toEqual([]);
  });

  it("minimum notice: lead days move the calendar, lead hours the first start", () => {
    expect(times(input({ day: "2026-11-02" }))).toEqual([]);
    expect(times(input({ day: "2026-11-03", leadTime: { days: 0, hours: 0 } }))).toHaveLength(16);
    expect(times(input({ day: "2026-11-03", leadTime: { days: 1, hours: 0 } }))).toEqual([]);
    // Now 11:00 Berlin + 24 h: the next day from 11:30 on.
    expect(times(input({ day: "2026-11-03", leadTime: { days: 0, hours: 24 } }))[0]).toBe("11:30");
  });

  it("the horizon ends the bookable days (0: no limit)", () => {
    expect(times(input({ day: "2026-11-12", rules: { horizonDays: 10 } }))).toHaveLength(16);
    expect(times(input({ day: "2026-11-13", rules: { horizonDays: 10 } }))).toEqual([]);
    expect(times(input({ day: "2027-11-12", rules: { horizonDays: 0 } }))).toHaveLength(16);
  });

  it("busy times of the team's calendar remove the overlapping slots (buffers included)", () => {
    const busy = [{ start: at("2026-11-04", 12, 10), end: at("2026-11-04", 12, 50) }];
    const list = times(input({ busy }));
    expect(list).not.toContain("12:00");
    expect(list).not.toContain("12:30");
    expect(list).toContain("11:30");
    expect(list).toContain("13:00");
    expect(times(input({ busy, rules: { bufferAfterMinutes: 15 } }))).not.toContain("11:45");
    expect(times(input({ busy, rules: { bufferAfterMinutes: 15 } }))).not.toContain("11:30");
    // A recurring event's expanded occurrences are intervals like any other.
    const weekly = [0, 7].map((d) => ({
      start: at(`2026-11-${String(4 + d).padStart(2, "0")}`, 9),
      end: at(`2026-11-${String(4 + d).padStart(2, "0")}`, 10),
    }));
    expect(times(input({ busy: weekly }))[0]).toBe("10:00");
    expect(times(input({ busy: weekly, day: "2026-11-11" }))[0]).toBe("10:00");
  });

  it("closed days have no slots; isFreeSlot agrees with the list", () => {
    expect(times(input({ closedDays: new Set(["2026-11-04"]) }))).toEqual([]);
    const base = input();
    expect(isFreeSlot(at("2026-11-04", 9, 30), base)).toBe(true);
    expect(isFreeSlot(at("2026-11-04", 9, 40), base)).toBe(false);
    expect(isFreeSlot(at("2026-11-04", 17, 0), base)).toBe(false);
  });
});

describe("freeSlots: DST in Europe/Berlin", () => {
  it("keeps wall-clock hours on the days the clocks change", () => {
    const spring = input({ day: "2026-03-30", now: new Date("2026-03-20T10:00:00Z") });
    expect(freeSlots(spring)[0].toISOString()).toBe("2026-03-30T07:00:00.000Z");
    const autumn = input({ day: "2026-10-26", now: new Date("2026-10-20T10:00:00Z") });
    expect(freeSlots(autumn)[0].toISOString()).toBe("2026-10-26T08:00:00.000Z");
    // Sunday hours on the change day itself: 02:00–04:00 has one hour less / more.
    const night = { ...DEFAULT_WEEKLY_HOURS, sun: [{ from: "01:00", to: "04:00" }] };
    const march = freeSlots(
      input({
        day: "2026-03-29",
        now: new Date("2026-03-20T10:00:00Z"),
        rules: { weeklyHours: night, slotStepMinutes: 60 },
        durationMinutes: 60,
      }),
    );
    expect(new Set(march.map((d) => d.toISOString())).size).toBe(march.length);
    expect(march.map((d) => d.toISOString())).toContain("2026-03-29T00:00:00.000Z");
    const october = freeSlots(
      input({
        day: "2026-10-25",
        now: new Date("2026-10-20T10:00:00Z"),
        rules: { weeklyHours: night, slotStepMinutes: 60 },
        durationMinutes: 60,
      }),
    );
    expect(october[0].toISOString()).toBe("2026-10-24T23:00:00.000Z");
    expect(october).toHaveLength(3);
  });
});

describe("closedDays: holidays and blocked days", () => {
  const rules = { ...DEFAULT_SCHEDULING };
  it("nationwide public holidays by default, 24.12. and 31.12. as removable blocked days", () => {
    const closed = closedDays(rules, 2026, 2026);
    for (const d of [
      "2026-01-01",
      "2026-04-03",
      "2026-04-06",
      "2026-05-01",
      "2026-05-14",
      "2026-05-25",
      "2026-10-03",
      "2026-12-24",
      "2026-12-25",
      "2026-12-26",
      "2026-12-31",
    ])
      expect(closed.has(d), d).toBe(true);
    expect(closed.has("2026-01-06")).toBe(false); // only in some states
    expect(closed.has("2026-11-18")).toBe(false); // Buß- und Bettag: Saxony only
    const open = closedDays(
      { ...rules, blockChristmasEve: false, blockNewYearsEve: false },
      2026,
      2026,
    );
    expect(open.has("2026-12-24")).toBe(false);
    expect(open.has("2026-12-31")).toBe(false);
    expect(closedDays({ ...rules, publicHolidays: false }, 2026, 2026).has("2026-10-03")).toBe(
      false,
    );
  });

  it.each([
    ["BY", "2026-01-06", true],
    ["BY", "2026-06-04", true],
    ["SN", "2026-11-18", true],
    ["BE", "2026-03-08", true],
    ["NW", "2026-11-01", true],
    ["HH", "2026-01-06", false],
  ] as const)("state %s: %s closed = %s", (state, day, closed) => {
    expect(closedDays({ ...rules, holidayState: state }, 2026, 2026).has(day)).toBe(closed);
  });

  it("blocked ranges close every day from..to", () => {
    const closed = closedDays(
      {
        ...rules,
        blockedDays: [
          { from: "2026-08-03", to: "2026-08-14", note: "Betriebsurlaub" },
          { from: "2026-09-22", to: "2026-09-22" },
        ],
      },
      2026,
      2026,
    );
    expect(closed.has("2026-08-02")).toBe(false);
    expect(closed.has("2026-08-03")).toBe(true);
    expect(closed.has("2026-08-14")).toBe(true);
    expect(closed.has("2026-08-15")).toBe(false);
    expect(closed.has("2026-09-22")).toBe(true);
  });
});

describe("SchedulingSettingsSchema", () => {
  it("defaults reproduce the former week and refuse broken intervals", () => {
    expect(DEFAULT_SCHEDULING.weeklyHours).toEqual(DEFAULT_WEEKLY_HOURS);
    expect(DEFAULT_SCHEDULING).toMatchObject({
      slotStepMinutes: 0,
      maxPerDay: 0,
      horizonDays: 0,
      publicHolidays: true,
      holidayState: null,
    });
    const bad = SchedulingSettingsSchema.safeParse({
      weeklyHours: { mon: [{ from: "12:00", to: "09:00" }] },
    });
    expect(bad.success).toBe(false);
    const overlap = SchedulingSettingsSchema.safeParse({
      weeklyHours: {
        mon: [
          { from: "09:00", to: "12:00" },
          { from: "11:00", to: "13:00" },
        ],
      },
    });
    expect(overlap.success).toBe(false);
    const range = SchedulingSettingsSchema.safeParse({
      blockedDays: [{ from: "2026-08-10", to: "2026-08-01" }],
    });
    expect(range.success).toBe(false);
    const ok = SchedulingSettingsSchema.parse({
      holidayState: "XX",
      blockedDays: [{ from: "2026-08-10" }],
    });
    expect(ok.holidayState).toBeNull();
    expect(ok.blockedDays).toEqual([{ from: "2026-08-10", to: "2026-08-10", note: "" }]);
  });
});

describe("long ranges, DST changes and the busy window", () => {
  it("a blocked range of any length closes every one of its days, checked directly", () => {
    const rules = {
      ...DEFAULT_SCHEDULING,
      blockedDays: [{ from: "2023-01-01", to: "2099-12-31", note: "Geschlossen" }],
    };
    const closed = closedDays(rules, 2030, 2030);
    expect(closed.has("2022-12-31")).toBe(false);
    expect(closed.has("2030-06-12")).toBe(true);
    expect(closed.has("2099-12-31")).toBe(true);
    expect(closedDaysAhead(rules, "2099-12-29", 2)).toEqual([
      "2099-12-29",
      "2099-12-30",
      "2099-12-31",
    ]);
  });

  it("on the autumn DST day an interval ending at 03:00 ends at 03:00 CET", () => {
    const slots = freeSlots(
      input({
        day: "2026-10-25",
        now: new Date("2026-10-01T00:00:00Z"),
        rules: { weeklyHours: { ...DEFAULT_WEEKLY_HOURS, sun: [{ from: "01:00", to: "03:00" }] } },
        durationMinutes: 60,
      }),
    );
    const end = berlinTime("2026-10-25", 3).getTime();
    expect(slots.length).toBeGreaterThan(0);
    for (const s of slots) expect(s.getTime() + 3600_000).toBeLessThanOrEqual(end);
  });

  it("on the spring DST day no slot lies after the configured end of the hours", () => {
    // Sunday 28.03.2027: 02:00 CET jumps to 03:00 CEST. Hours 01:00–03:00 (wall clock) end at
    // 03:00 CEST; a grid mapping 02:00/02:30 to 03:00/03:30 CEST would offer slots after closing.
    const day = "2027-03-28";
    const slots = freeSlots(
      input({
        day,
        now: new Date("2027-03-01T00:00:00Z"),
        leadTime: { days: 0, hours: 0 },
        rules: {
          weeklyHours: { ...DEFAULT_WEEKLY_HOURS, sun: [{ from: "01:00", to: "03:00" }] },
          slotStepMinutes: 0,
          bufferBeforeMinutes: 0,
          bufferAfterMinutes: 0,
          maxPerDay: 0,
          horizonDays: 0,
        },
      }),
    );
    const closing = berlinTime(day, 3).getTime(); // 03:00 CEST = 01:00Z
    expect(slots.length).toBeGreaterThan(0);
    for (const s of slots) expect(s.getTime() + 30 * 60_000).toBeLessThanOrEqual(closing);
  });

  it("with team calendar feeds an unlimited horizon ends where the imported busy times end", () => {
    expect(busyWindowDays({ horizonDays: 30 })).toBe(30);
    expect(busyWindowDays({ horizonDays: 0 })).toBe(730);
    expect(availabilityRules(DEFAULT_SCHEDULING).horizonDays).toBe(0);
    expect(availabilityRules(DEFAULT_SCHEDULING, true).horizonDays).toBe(730);
    expect(availabilityRules({ ...DEFAULT_SCHEDULING, horizonDays: 60 }, true).horizonDays).toBe(
      60,
    );
  });
});
