import { describe, expect, it } from "vitest";
import { isAbsentOn, WORK_MESSAGES, WorkSettingsSchema } from "./work-settings";

describe("WorkSettingsSchema", () => {
  const errors = (input: unknown) =>
    WorkSettingsSchema.safeParse(input).error?.issues.map((i) => `${i.path}: ${i.message}`);
  it("a blank absence is none; both days or neither", () => {
    expect(
      WorkSettingsSchema.parse({ morningDigest: true, absentFrom: "", absentUntil: null }),
    ).toEqual({ morningDigest: true, absentFrom: null, absentUntil: null });
    expect(errors({ absentFrom: "2026-12-20" })).toEqual([
      `absentUntil: ${WORK_MESSAGES.untilRequired}`,
    ]);
    expect(errors({ absentUntil: "2026-12-20" })).toEqual([
      `absentFrom: ${WORK_MESSAGES.fromRequired}`,
    ]);
  });
  it("refuses an end before the start, more than a year, or a non-day", () => {
    expect(errors({ absentFrom: "2026-12-20", absentUntil: "2026-12-19" })).toEqual([
      `absentUntil: ${WORK_MESSAGES.untilBeforeFrom}`,
    ]);
    expect(errors({ absentFrom: "2026-01-01", absentUntil: "2027-01-03" })).toEqual([
      `absentUntil: ${WORK_MESSAGES.tooLong}`,
    ]);
    expect(errors({ absentFrom: "20.12.2026", absentUntil: "2026-12-24" })).toContain(
      `absentFrom: ${WORK_MESSAGES.dayInvalid}`,
    );
    expect(errors({ absentFrom: "2026-12-20", absentUntil: "2026-12-20" })).toBeUndefined();
  });
  it("absent on both ends and between, not outside", () => {
    const away = { absentFrom: "2026-12-20", absentUntil: "2026-12-24" };
    expect(isAbsentOn(away, "2026-12-19")).toBe(false);
    expect(isAbsentOn(away, "2026-12-20")).toBe(true);
    expect(isAbsentOn(away, "2026-12-24")).toBe(true);
    expect(isAbsentOn(away, "2026-12-25")).toBe(false);
    expect(isAbsentOn({ absentFrom: null, absentUntil: null }, "2026-12-20")).toBe(false);
  });
});
