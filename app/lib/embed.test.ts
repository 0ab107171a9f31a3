import { describe, expect, it } from "vitest";
import {
  EMBED_ORIGIN_DUPLICATE,
  EMBED_ORIGIN_HOST,
  EMBED_ORIGIN_HTTPS,
  EMBED_ORIGIN_INVALID,
  EMBED_ORIGIN_WILDCARD,
  EmbedSettingsSchema,
  embedFrameAncestors,
  embedSnippet,
  parseEmbedOrigin,
  usableEmbedOrigins,
} from "./embed";

describe("parseEmbedOrigin", () => {
  it.each([
    ["https://www.example.com", "https://www.example.com"],
    [" https://WWW.Example.com/ ", "https://www.example.com"],
    ["https://example.com:8443", "https://example.com:8443"],
    ["https://example.com:443", "https://example.com"],
    ["http://localhost:5173", "http://localhost:5173"],
    ["http://127.0.0.1:8080/", "http://127.0.0.1:8080"],
    ["http://[::1]:3000", "http://[::1]:3000"],
  ])("normalises %j", (value, origin) => {
    expect(parseEmbedOrigin(value)).toEqual({ ok: true, origin });
  });

  it.each([
    ["http://example.com", EMBED_ORIGIN_HTTPS],
    ["https://example.com/kontakt", EMBED_ORIGIN_INVALID],
    ["https://example.com/?", EMBED_ORIGIN_INVALID],
    ["https://example.com#x", EMBED_ORIGIN_INVALID],
    ["https://user:pw@example.com", EMBED_ORIGIN_INVALID],
    ["javascript:alert(1)", EMBED_ORIGIN_INVALID],
    ["example.com", EMBED_ORIGIN_INVALID],
    ["*", EMBED_ORIGIN_INVALID],
  ])("refuses %j", (value, message) => {
    expect(parseEmbedOrigin(value)).toEqual({ ok: false, message });
  });
});

describe("parseEmbedOrigin: only plain hosts (attack29)", () => {
  it.each(["https://*", "https://*.com", "https://*.agentur.example"])(
    "refuses the wildcard %j in German",
    (value) => {
      expect(parseEmbedOrigin(value)).toEqual({ ok: false, message: EMBED_ORIGIN_WILDCARD });
    },
  );

  it.each([
    "https://x%3bsandbox",
    "https://a%2cb.example",
    "https://x%27unsafe-inline%27",
    "https://a'b.example",
    "https://a_b.example",
  ])("refuses %j, whose host is no CSP host", (value) => {
    expect(parseEmbedOrigin(value)).toEqual({ ok: false, message: EMBED_ORIGIN_HOST });
  });

  it.each([
    ["https://bücher.example", "https://xn--bcher-kva.example"],
    ["https://203.0.113.7", "https://203.0.113.7"],
    ["https://[2001:db8::1]:8443", "https://[2001:db8::1]:8443"],
  ])("accepts %j as %j", (value, origin) => {
    expect(parseEmbedOrigin(value)).toEqual({ ok: true, origin });
  });

  it("the CSP keeps only usable stored origins (http only while the app is loopback)", () => {
    const stored = [
      "https://ok.example",
      "https://x;sandbox",
      "https://*",
      "https://Upper.example",
      "http://localhost:5173",
    ];
    expect(usableEmbedOrigins(stored, false)).toEqual(["https://ok.example"]);
    expect(usableEmbedOrigins(stored, true)).toEqual([
      "https://ok.example",
      "http://localhost:5173",
    ]);
  });
});

describe("EmbedSettingsSchema", () => {
  it("defaults to no origins (embedding off)", () => {
    expect(EmbedSettingsSchema.parse({})).toEqual({ allowedOrigins: [] });
  });

  it("refuses a duplicate at its row", () => {
    const result = EmbedSettingsSchema.safeParse({
      allowedOrigins: ["https://a.example", "https://A.example/"],
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["allowedOrigins.1", EMBED_ORIGIN_DUPLICATE],
    ]);
  });
});

describe("embed snippet", () => {
  it("frames /embed with the microphone allowed and names what the host page must allow", () => {
    const snippet = embedSnippet("https://portal.example.com/");
    expect(snippet.iframe).toContain('src="https://portal.example.com/embed"');
    expect(snippet.iframe).toContain('allow="microphone"');
    expect(snippet.script).toBe(
      '<script src="https://portal.example.com/embed.js?v=2" defer></script>',
    );
    expect(snippet.csp).toBe(
      "frame-src https://portal.example.com; script-src https://portal.example.com",
    );
  });

  it("frame-ancestors: 'self' first, then the allowed websites", () => {
    expect(embedFrameAncestors([])).toEqual(["'self'"]);
    expect(embedFrameAncestors(["https://a.example"])).toEqual(["'self'", "https://a.example"]);
  });
});
