import { describe, expect, it } from "vitest";
import { createLimiter, tooManyMessage } from "./rate-limit.server";

describe("createLimiter", () => {
  it("allows the window's points and then refuses with a retry time", async () => {
    const limiter = createLimiter("test-window", { points: 2, durationSeconds: 60 });
    expect(await limiter.consume("ip")).toEqual({ ok: true });
    expect(await limiter.consume("ip")).toEqual({ ok: true });
    const third = await limiter.consume("ip");
    expect(third.ok).toBe(false);
    if (!third.ok) expect(third.retryAfterSeconds).toBeGreaterThan(0);
    expect(await limiter.consume("other-ip")).toEqual({ ok: true });
  });

  it("check does not count and reset clears", async () => {
    const limiter = createLimiter("test-check", { points: 1, durationSeconds: 60 });
    expect((await limiter.check("k")).ok).toBe(true);
    await limiter.consume("k");
    expect((await limiter.check("k")).ok).toBe(false);
    await limiter.reset("k");
    expect((await limiter.check("k")).ok).toBe(true);
  });

  it("lets exactly the limit through when attempts run in parallel; refund gives one back", async () => {
    const limiter = createLimiter("test-parallel", { points: 5, durationSeconds: 60 });
    const results = await Promise.all(Array.from({ length: 20 }, () => limiter.consume("ip")));
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    const other = createLimiter("test-refund", { points: 2, durationSeconds: 60 });
    await other.consume("ip");
    await other.consume("ip");
    await other.refund("ip");
    expect((await other.consume("ip")).ok).toBe(true);
    expect((await other.consume("ip")).ok).toBe(false);
  });

  it("keeps its counts in SQLite: a new limiter of the same name sees them", async () => {
    const first = createLimiter("test-durable", { points: 1, durationSeconds: 60 });
    await first.consume("ip");
    const second = createLimiter("test-durable", { points: 1, durationSeconds: 60 });
    expect((await second.check("ip")).ok).toBe(false);
  });

  it("words the wait in minutes", () => {
    expect(tooManyMessage(30)).toContain("1 Minute ");
    expect(tooManyMessage(900)).toContain("15 Minuten");
  });
});
