import { describe, expect, it } from "vitest";
import { stableSerialize } from "./render-cache.server";

describe("stableSerialize", () => {
  it("is independent of key order and tells apart what renders differently", () => {
    expect(stableSerialize({ a: 1, b: [1, "x"] })).toBe(stableSerialize({ b: [1, "x"], a: 1 }));
    const distinct = [
      { a: null },
      { a: undefined },
      {},
      { a: "1" },
      { a: 1 },
      { a: true },
      { a: [] },
      { a: {} },
      { a: new Date(0) },
      { a: new Date(1) },
      { a: Number.NaN },
      { a: [null] },
      { a: [undefined] },
    ].map(stableSerialize);
    expect(distinct.every((s) => typeof s === "string")).toBe(true);
    expect(new Set(distinct).size).toBe(distinct.length);
  });

  it("refuses values it cannot represent faithfully (the page is then rendered fresh)", () => {
    class Thing {
      x = 1;
    }
    for (const value of [
      { a: new Map([[1, 2]]) },
      { a: new Set([1]) },
      { a: Promise.resolve(1) },
      { a: new Thing() },
      { a: () => 1 },
      { a: 1n },
      { a: Symbol("s") },
      // biome-ignore lint/suspicious/noSparseArray: a hole is not undefined
      [1, , 2],
    ]) {
      expect(stableSerialize(value)).toBeNull();
    }
  });
});
