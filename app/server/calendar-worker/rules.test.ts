import ICAL from "ical.js";
import { describe, expect, it } from "vitest";
import { impossibleRule } from "./rules";

const check = (rule: string) => {
  const recur = ICAL.Recur.fromString(rule);
  return impossibleRule(recur.freq, recur.parts as never);
};

describe("recurrence rules that can never match (refused before iterating)", () => {
  it.each([
    // The security review's feed: month days no listed month has.
    "FREQ=YEARLY;BYMONTHDAY=30;BYMONTH=2;BYDAY=MO",
    "FREQ=YEARLY;BYMONTHDAY=31;BYMONTH=4,6,9,11",
    "FREQ=YEARLY;BYMONTHDAY=-30;BYMONTH=2;BYDAY=SU",
    "FREQ=DAILY;BYMONTHDAY=30;BYMONTH=2",
    "FREQ=MONTHLY;BYMONTHDAY=31;BYMONTH=2",
    // An ordinal weekday that never falls on the month day: the first Monday on the 15th.
    "FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=15",
    "FREQ=YEARLY;BYMONTH=4;BYDAY=-1FR;BYMONTHDAY=1",
    "FREQ=MONTHLY;BYDAY=6MO",
    // Parts outside their range or beside a frequency they do not belong to.
    "FREQ=MONTHLY;BYMONTHDAY=0",
    "FREQ=DAILY;BYWEEKNO=1;BYMONTH=6",
    "FREQ=MONTHLY;BYYEARDAY=100",
  ])("%s", (rule) => {
    expect(check(rule)).toEqual(expect.any(String));
  });

  it("values outside their range (ical.js refuses most while parsing; not all texts are parsed by it)", () => {
    expect(impossibleRule("DAILY", { BYHOUR: [24] })).toEqual(expect.any(String));
    expect(impossibleRule("MINUTELY", { BYMINUTE: [60] })).toEqual(expect.any(String));
    expect(impossibleRule("YEARLY", { BYMONTH: [13] })).toEqual(expect.any(String));
    expect(impossibleRule("YEARLY", { BYMONTH: [-2] })).toEqual(expect.any(String));
    expect(impossibleRule("MONTHLY", { BYDAY: ["9XX"] })).toEqual(expect.any(String));
    expect(impossibleRule("DAILY", { BYHOUR: [23], BYMINUTE: [59], BYSECOND: [60] })).toBeNull();
  });

  it.each([
    "FREQ=WEEKLY;BYDAY=MO,WE,FR",
    "FREQ=DAILY",
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29",
    "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;BYDAY=MO",
    "FREQ=MONTHLY;BYDAY=-1FR",
    "FREQ=MONTHLY;BYDAY=5MO",
    "FREQ=MONTHLY;BYDAY=1MO;BYMONTHDAY=1,2,3,4,5,6,7",
    "FREQ=MONTHLY;BYDAY=-1SU;BYMONTHDAY=-1,-2,-3,-4,-5,-6,-7",
    "FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13",
    "FREQ=YEARLY;BYWEEKNO=53",
    "FREQ=YEARLY;BYYEARDAY=-1",
    "FREQ=MONTHLY;BYMONTHDAY=-31",
  ])("%s may occur", (rule) => {
    expect(check(rule)).toBeNull();
  });
});
