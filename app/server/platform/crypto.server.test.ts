import { hkdfSync, randomBytes, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  derivedKeys,
  dummyPasswordHash,
  hashPassword,
  MAX_CONCURRENT_HASHES,
  needsRehash,
  verifyPassword,
} from "./crypto.server";
import { testHooks } from "./test-hooks.server";

describe("password hashing (scrypt N=2^14, r=8, p=5)", () => {
  it("hashes with today's parameters and verifies", async () => {
    const stored = await hashPassword("richtig-geheim");
    expect(stored).toMatch(/^scrypt\$16384\$8\$5\$[\w-]+\$[\w-]+$/);
    expect(await verifyPassword("richtig-geheim", stored)).toBe(true);
    expect(await verifyPassword("falsch-geheim", stored)).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it("still verifies older hashes and marks them for re-hashing", async () => {
    // A real hash as written before ADR 091 (p=1), built by hand.
    const salt = randomBytes(16);
    const key = scryptSync("alt-geheim", salt, 64, {
      N: 2 ** 15,
      r: 8,
      p: 1,
      maxmem: 64 * 1024 * 1024,
    });
    const p1 = [
      "scrypt",
      2 ** 15,
      8,
      1,
      salt.toString("base64url"),
      key.toString("base64url"),
    ].join("$");
    expect(await verifyPassword("alt-geheim", p1)).toBe(true);
    expect(needsRehash(p1)).toBe(true);
    expect(needsRehash("scrypt$16384$8$3$c2FsdA$a2V5")).toBe(true);
    // The parameters of ADR 091 (32 MiB per hash) are re-hashed too (ADR 168).
    expect(needsRehash("scrypt$32768$8$3$c2FsdA$a2V5")).toBe(true);
  });

  it("gives the dummy hash for unknown users the same parameters", async () => {
    expect(await dummyPasswordHash()).toMatch(/^scrypt\$16384\$8\$5\$/);
  });

  it(`runs at most ${MAX_CONCURRENT_HASHES} hashes at once`, async () => {
    let peak = 0;
    let done = false;
    const all = Promise.all(
      Array.from({ length: 6 }, (_, i) => hashPassword(`passwort-${i}`)),
    ).then((hashes) => {
      done = true;
      return hashes;
    });
    while (!done) {
      peak = Math.max(peak, testHooks.runningHashes());
      await new Promise((r) => setImmediate(r));
    }
    expect(peak).toBe(MAX_CONCURRENT_HASHES);
    expect(new Set(await all).size).toBe(6);
    expect(testHooks.runningHashes()).toBe(0);
  });
});

describe("derivedKeys", () => {
  it("one HKDF key per purpose from each SESSION_SECRET of the list (first signs, all verify)", () => {
    const expected = Buffer.from(hkdfSync("sha256", "test-secret", "anfrage-portal", "p-a", 32));
    expect(derivedKeys("p-a")).toEqual([expected]);
    expect(derivedKeys("p-b")[0]?.equals(expected)).toBe(false);
  });
});
