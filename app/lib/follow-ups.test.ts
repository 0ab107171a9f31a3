import { afterEach, describe, expect, it, vi } from "vitest";
import {
  dueLabel,
  endOfWeek,
  FOLLOW_UP_MESSAGES,
  FollowUpSchema,
  oneYearAfter,
  presetDay,
  taskBucket,
} from "./follow-ups";

describe("follow-up days", () => {
  it("presets: tomorrow, in three days, Monday of next week (from a Monday: the one after)", () => {
    // 2026-12-09 is a Wednesday.
    expect(presetDay("morgen", "2026-12-09")).toBe("2026-12-10");
    expect(presetDay("3-tage", "2026-12-09")).toBe("2026-12-12");
    expect(presetDay("naechste-woche", "2026-12-09")).toBe("2026-12-14");
    expect(presetDay("naechste-woche", "2026-12-14")).toBe("2026-12-21");
    expect(presetDay("naechste-woche", "2026-12-13")).toBe("2026-12-14");
    expect(presetDay("morgen", "2026-12-31")).toBe("2027-01-01");
  });

  it("one year ahead, and the week's end", () => {
    expect(oneYearAfter("2026-12-09")).toBe("2027-12-09");
    expect(oneYearAfter("2028-02-29")).toBe("2029-03-01");
    expect(endOfWeek("2026-12-09")).toBe("2026-12-13");
    expect(endOfWeek("2026-12-13")).toBe("2026-12-13");
  });

  it("buckets and labels seen from today", () => {
    const today = "2026-12-09";
    expect(taskBucket("2026-12-01", today)).toBe("overdue");
    expect(taskBucket(today, today)).toBe("today");
    expect(taskBucket("2026-12-13", today)).toBe("week");
    expect(taskBucket("2026-12-14", today)).toBe("later");
    expect(dueLabel(today, today)).toBe("heute");
    expect(dueLabel("2026-12-10", today)).toBe("morgen");
    expect(dueLabel("2026-12-02", today)).toBe("überfällig seit 02.12.2026");
    expect(dueLabel("2026-12-24", today)).toBe("am 24.12.2026");
  });
});

describe("FollowUpSchema (page and API)", () => {
  afterEach(() => vi.useRealTimers());
  const at = (iso: string) => vi.useFakeTimers({ now: new Date(iso), toFake: ["Date"] });
  const errorOf = (input: unknown) => {
    const parsed = FollowUpSchema.safeParse(input);
    return parsed.success
      ? null
      : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
  };

  it("a preset or a day becomes a day; the text is one trimmed line", () => {
    // 23:30 in Berlin on Wednesday 9 December is already the 9th there (UTC 22:30).
    at("2026-12-09T22:30:00Z");
    expect(FollowUpSchema.parse({ preset: "morgen", text: "  Angebot\n nachfassen " })).toEqual({
      due: "2026-12-10",
      text: "Angebot nachfassen",
    });
    expect(FollowUpSchema.parse({ due: "2026-12-09" })).toEqual({ due: "2026-12-09", text: "" });
    // A preset wins over a typed day (the button that was clicked).
    expect(FollowUpSchema.parse({ preset: "naechste-woche", due: "2027-03-01" }).due).toBe(
      "2026-12-14",
    );
  });

  it("refuses a missing, invalid, past or too distant day and a long text at their fields", () => {
    at("2026-12-09T10:00:00Z");
    expect(errorOf({})).toEqual([`due: ${FOLLOW_UP_MESSAGES.dayRequired}`]);
    expect(errorOf({ due: "2026-02-30" })).toEqual([`due: ${FOLLOW_UP_MESSAGES.dayInvalid}`]);
    expect(errorOf({ due: "09.12.2026" })).toEqual([`due: ${FOLLOW_UP_MESSAGES.dayInvalid}`]);
    expect(errorOf({ due: "2026-12-08" })).toEqual([`due: ${FOLLOW_UP_MESSAGES.dayPast}`]);
    expect(errorOf({ due: "2027-12-09" })).toBeNull();
    expect(errorOf({ due: "2027-12-10" })).toEqual([`due: ${FOLLOW_UP_MESSAGES.dayTooFar}`]);
    expect(errorOf({ preset: "bald" })).toContain(`preset: ${FOLLOW_UP_MESSAGES.dayInvalid}`);
    expect(errorOf({ preset: "morgen", text: "x".repeat(201) })).toEqual([
      `text: ${FOLLOW_UP_MESSAGES.textTooLong}`,
    ]);
  });
});
