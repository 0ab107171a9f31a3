import { describe, expect, it } from "vitest";
import {
  createLimiter,
  loginLimiter,
  passwordStrengthLimiter,
  tooManyMessage,
  withNetwork,
} from "./rate-limit.server";

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

  it("says 'du' to visitors and 'Sie' in the admin area", () => {
    expect(tooManyMessage(900)).toBe(
      "Zu viele Versuche. Bitte warte 15 Minuten und versuche es dann erneut.",
    );
    expect(tooManyMessage(900, "admin")).toBe(
      "Zu viele Versuche. Bitte warten Sie 15 Minuten und versuchen Sie es dann erneut.",
    );
  });

  it("resetMatching forgets the keys between a prefix and a suffix, matched literally", async () => {
    const limiter = createLimiter("test-matching", { points: 1, durationSeconds: 60 });
    for (const key of ["user:1.2.3.4:anna", "user:::1:anna", "user:1.2.3.4:hanna", "ip:anna"])
      await limiter.consume(key);
    await limiter.consume("user:5.6.7.8:a*");
    limiter.resetMatching("user:", ":anna");
    expect((await limiter.check("user:1.2.3.4:anna")).ok).toBe(true);
    expect((await limiter.check("user:::1:anna")).ok).toBe(true);
    expect((await limiter.check("user:1.2.3.4:hanna")).ok).toBe(false);
    expect((await limiter.check("ip:anna")).ok).toBe(false);
    // Glob characters in the suffix are literal: "a*" does not reach "anna"'s neighbours.
    await limiter.consume("user:1.2.3.4:anna");
    limiter.resetMatching("user:", ":a*");
    expect((await limiter.check("user:5.6.7.8:a*")).ok).toBe(true);
    expect((await limiter.check("user:1.2.3.4:anna")).ok).toBe(false);
  });
});

describe("withNetwork", () => {
  it("puts the network's counter beside the client's: five clients' worth unless configured", () => {
    const [[client, key], [network, networkKey]] = withNetwork(
      loginLimiter(),
      "login:ip:2001:db8:a:1/56",
      "2001:db8:a:100::1",
      "login:net:",
    );
    expect(client.name).toBe("login");
    expect(key).toBe("login:ip:2001:db8:a:1/56");
    expect(networkKey).toBe("login:net:2001:db8:a::/48");
    // LOGIN_NETWORK_RATE_LIMIT unset: 5 × LOGIN_RATE_LIMIT (5/15m).
    expect(network).toMatchObject({
      name: "login-network",
      spec: { points: 25, durationSeconds: 900 },
      audience: "admin",
    });
    const [, [strength, strengthKey]] = withNetwork(passwordStrengthLimiter(), "k", "192.0.2.7");
    expect(strengthKey).toBe("192.0.2.0/24");
    expect(strength).toMatchObject({
      name: "password-strength-network",
      spec: { points: 300, durationSeconds: 600 },
      audience: "admin",
    });
  });
});
