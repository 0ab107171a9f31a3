import { describe, expect, it } from "vitest";
import { cspNonce } from "../../server/csp-nonce";

describe("cspNonce", () => {
  it("gives 16 random bytes in base64, never the same twice, across refills of its pool", () => {
    const nonces = Array.from({ length: 2_000 }, () => cspNonce());
    for (const nonce of nonces) {
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(Buffer.from(nonce, "base64")).toHaveLength(16);
    }
    expect(new Set(nonces).size).toBe(nonces.length);
  });

  it("hands out fresh bytes, not a copy of an earlier stretch of the pool", () => {
    // 256 nonces fill the pool once: the next 256 must not repeat the first 256 in order.
    const first = Array.from({ length: 256 }, () => cspNonce()).join("");
    const second = Array.from({ length: 256 }, () => cspNonce()).join("");
    expect(second).not.toBe(first);
  });
});
