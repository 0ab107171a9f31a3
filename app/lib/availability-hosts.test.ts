import { describe, expect, it } from "vitest";
import { type AvailabilityInput, freeHostsAt, freeSlots } from "./availability";
import { berlinTime } from "./booking-calendar";
import { availabilityRules, DEFAULT_SCHEDULING } from "./scheduling-settings";

// Who takes a demo (ADR 338): a slot is free when one host is free; overlap, buffers and the
// daily maximum count per host; a booking of no host (the team) blocks everyone.
const NOW = new Date("2026-11-02T10:00:00Z");
const DAY = "2026-11-04";
const at = (h: number, m = 0) => berlinTime(DAY, h, m);
const span = (h: number, m: number, minutes = 30) => ({
  start: at(h, m),
  end: new Date(at(h, m).getTime() + minutes * 60_000),
});
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
): AvailabilityInput {
  const { rules, ...rest } = over;
  return {
    day: DAY,
    durationMinutes: 30,
    leadTime: { days: 1, hours: 0 },
    now: NOW,
    closedDays: new Set<string>(),
    bookings: [],
    busy: [],
    ...rest,
    rules: { ...availabilityRules(DEFAULT_SCHEDULING), ...rules },
  };
}

describe("freeSlots with hosts", () => {
  it("a slot is free when one host is free", () => {
    const hosts = [
      { id: 1, busy: [span(10, 0, 60)] },
      { id: 2, busy: [span(10, 30)] },
    ];
    const list = freeSlots(input({ hosts })).map(hhmm);
    expect(list).toContain("10:00"); // host 2 is free at 10:00
    expect(list).not.toContain("10:30"); // both are busy
    expect(list).toContain("11:00");
  });

  it("bookings block their own host only; a team booking blocks everyone", () => {
    const hosts = [
      { id: 1, busy: [] },
      { id: 2, busy: [] },
    ];
    const own = [{ ...span(9, 0), id: 10, hostId: 1 }];
    expect(freeSlots(input({ hosts, bookings: own })).map(hhmm)).toContain("09:00");
    const both = [...own, { ...span(9, 0), id: 11, hostId: 2 }];
    expect(freeSlots(input({ hosts, bookings: both })).map(hhmm)).not.toContain("09:00");
    const team = [{ ...span(9, 30), id: 12, hostId: null }];
    expect(freeSlots(input({ hosts, bookings: team })).map(hhmm)).not.toContain("09:30");
  });

  it("buffers and the daily maximum count per host", () => {
    const hosts = [
      { id: 1, busy: [] },
      { id: 2, busy: [] },
    ];
    const rules = { maxPerDay: 1, bufferAfterMinutes: 30 };
    const one = [{ ...span(9, 0), id: 10, hostId: 1 }];
    // Host 1 is full for the day, host 2 is not.
    expect(freeSlots(input({ hosts, rules, bookings: one })).map(hhmm)).toContain("09:30");
    expect(freeHostsAt(at(9, 30), input({ hosts, rules, bookings: one }))).toEqual([2]);
    const two = [...one, { ...span(14, 0), id: 11, hostId: 2 }];
    expect(freeSlots(input({ hosts, rules, bookings: two }))).toEqual([]);
  });

  it("the host with fewer bookings that day comes first; a moved booking keeps its own", () => {
    const hosts = [
      { id: 1, busy: [] },
      { id: 2, busy: [] },
    ];
    const bookings = [{ ...span(9, 0), id: 10, hostId: 1 }];
    expect(freeHostsAt(at(11, 0), input({ hosts, bookings }))).toEqual([2, 1]);
    expect(freeHostsAt(at(11, 0), input({ hosts, bookings, exclude: 10 }), 1)).toEqual([1, 2]);
    expect(freeHostsAt(at(11, 0), input({ hosts: [] }))).toEqual([]);
  });

  it("without hosts: one shared calendar, as before", () => {
    const shared = freeSlots(input({ busy: [span(10, 0)] })).map(hhmm);
    expect(shared).not.toContain("10:00");
    expect(freeSlots(input({ hosts: [], busy: [span(10, 0)] })).map(hhmm)).toEqual(shared);
  });
});
