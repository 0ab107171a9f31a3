import { describe, expect, it } from "vitest";
import { levelFromSamples, MAX_RECORDING_SECONDS, remainingLabel } from "./recording";

describe("recording helpers", () => {
  it("shows the remaining time in minutes and seconds, never below zero", () => {
    expect(remainingLabel(0, 300)).toBe("noch 5:00");
    expect(remainingLabel(12, 300)).toBe("noch 4:48");
    expect(remainingLabel(299, 300)).toBe("noch 0:01");
    expect(remainingLabel(301, 300)).toBe("noch 0:00");
    expect(remainingLabel(0)).toBe(`noch ${MAX_RECORDING_SECONDS / 60}:00`);
  });

  it("derives the level from time-domain samples", () => {
    expect(levelFromSamples([])).toBe(0);
    expect(levelFromSamples(new Uint8Array(64).fill(128))).toBe(0);
    const quiet = levelFromSamples(Uint8Array.from({ length: 64 }, (_, i) => (i % 2 ? 120 : 136)));
    expect(quiet).toBeGreaterThan(0);
    expect(quiet).toBeLessThan(0.5);
    expect(levelFromSamples(Uint8Array.from({ length: 64 }, (_, i) => (i % 2 ? 0 : 255)))).toBe(1);
  });
});
