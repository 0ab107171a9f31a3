import { describe, expect, it } from "vitest";
import { createLimiter, tooManyMessage } from "./rate-limit.server";

describe("createLimiter", () => {
  it("allows the window's points and then refuses with a retry time", async () => {
    const limiter = createLimiter({ points: 2, durationSeconds: 60 });
    expect(await limiter.consume("ip")).toEqual({ ok: true });
    expect(await limiter.consume("ip")).toEqual({ ok: true });
    const third = await limiter.consume("ip");
    expect(third.ok).toBe(false);
    if (!third.ok) expect(third.retryAfterSeconds).toBeGreaterThan(0);
    expect(await limiter.consume("other-ip")).toEqual({ ok: true });
  });

  it("check does not count and reset clears", async () => {
    const limiter = createLimiter({ points: 1, durationSeconds: 60 });
    expect((await limiter.check("k")).ok).toBe(true);
    await limiter.consume("k");
    expect((await limiter.check("k")).ok).toBe(false);
    await limiter.reset("k");
    expect((await limiter.check("k")).ok).toBe(true);
  });

  it("words the wait in minutes", () => {
    expect(tooManyMessage(30)).toContain("1 Minute ");
    expect(tooManyMessage(900)).toContain("15 Minuten");
  });
});
