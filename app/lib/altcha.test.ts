import { describe, expect, it } from "vitest";
import { altchaPayloadStale } from "./altcha";

const payload = (expiresAt: unknown) =>
  btoa(JSON.stringify({ challenge: { parameters: { expiresAt } }, solution: { counter: 1 } }));

describe("altchaPayloadStale", () => {
  const now = Date.UTC(2026, 10, 28, 12, 0, 0);

  it("keeps a payload whose challenge is valid for more than 30 s", () => {
    expect(altchaPayloadStale(payload(now / 1000 + 600), now)).toBe(false);
  });

  it("replaces one that expires within 30 s or has expired", () => {
    expect(altchaPayloadStale(payload(now / 1000 + 20), now)).toBe(true);
    expect(altchaPayloadStale(payload(now / 1000 - 1), now)).toBe(true);
  });

  it("replaces what cannot be read", () => {
    expect(altchaPayloadStale("kein base64 {", now)).toBe(true);
    expect(altchaPayloadStale(payload("bald"), now)).toBe(true);
  });
});
