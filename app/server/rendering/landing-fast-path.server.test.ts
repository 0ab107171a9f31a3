import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

// The stamp's inputs and the kept pages are stand-ins: this tests the fast path's own rules (ADR 300).
const state = vi.hoisted(() => ({
  configuration: { version: 1 } as object,
  kept: new Set<string>(["seite"]),
}));
vi.mock("../configuration/configuration.server", () => ({
  getConfiguration: () => state.configuration,
}));
vi.mock("./render-cache.server", () => ({
  cachedPageBody: (key: string, nonce: string, gzip: boolean) =>
    state.kept.has(key) ? { body: Buffer.from(`${gzip ? "gz" : "id"}:${key}:${nonce}`) } : null,
}));

const { fastLanding, landingStamp, rememberLanding } = await import("./landing-fast-path.server");

const headers = {
  identity: [["content-type", "text/html; charset=utf-8"]] as [string, string][],
  gzip: [
    ["content-encoding", "gzip"],
    ["content-type", "text/html; charset=utf-8"],
    ["vary", "Accept-Encoding"],
  ] as [string, string][],
};
const answered = (result: ReturnType<typeof fastLanding>) =>
  "body" in result ? result.body.toString() : null;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-12-31T12:00:00Z"));
  state.configuration = { version: 1 };
  state.kept = new Set(["seite"]);
});
afterEach(() => {
  vi.useRealTimers();
});

describe("landing fast path", () => {
  it("answers with the remembered page and this response's nonce, identity or gzip", () => {
    rememberLanding(landingStamp(), "seite", headers);
    const identity = fastLanding("NONCE1", undefined);
    expect(answered(identity)).toBe("id:seite:NONCE1");
    expect("headers" in identity && identity.headers).toEqual(headers.identity);
    const gzip = fastLanding("NONCE2", "gzip, deflate, br");
    expect(answered(gzip)).toBe("gz:seite:NONCE2");
    expect("headers" in gzip && gzip.headers).toEqual(headers.gzip);
    expect(answered(fastLanding("NONCE3", "gzip;q=0"))).toBe("id:seite:NONCE3");
  });

  it("steps aside once the configuration object is another one (a save, another connection's write)", () => {
    rememberLanding(landingStamp(), "seite", headers);
    state.configuration = { version: 2 };
    const result = fastLanding("N", undefined);
    expect(answered(result)).toBeNull();
    expect(result).toEqual({ configuration: state.configuration, year: "2026" });
  });

  it("steps aside when the year of the footer changed (Berlin time)", () => {
    rememberLanding(landingStamp(), "seite", headers);
    expect(answered(fastLanding("N", undefined))).not.toBeNull();
    // 23:30 UTC on 31.12. is already the new year in Berlin.
    vi.setSystemTime(new Date("2026-12-31T23:30:00Z"));
    expect(answered(fastLanding("N", undefined))).toBeNull();
  });

  it("forgets a page the render cache no longer keeps, and never remembers one that sets a cookie", () => {
    rememberLanding(landingStamp(), "seite", headers);
    state.kept.clear();
    expect(answered(fastLanding("N", undefined))).toBeNull();
    state.kept.add("seite");
    // Forgotten: the next slow request remembers it again.
    expect(answered(fastLanding("N", undefined))).toBeNull();
    const withCookie = {
      identity: [...headers.identity, ["set-cookie", "a=1"]] as [string, string][],
      gzip: headers.gzip,
    };
    rememberLanding(landingStamp(), "seite", withCookie);
    expect(answered(fastLanding("N", undefined))).toBeNull();
  });

  it("never answers without a nonce (the CSP would not match the page's scripts)", () => {
    rememberLanding(landingStamp(), "seite", headers);
    expect(answered(fastLanding("", undefined))).toBeNull();
  });
});
