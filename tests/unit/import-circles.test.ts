import { describe, expect, it } from "vitest";
import { circles } from "../../scripts/check-import-circles.ts";

describe("the import-circle check", () => {
  it("finds each circle once, with every module in it, and nothing in a tree", () => {
    const graph = new Map<string, string[]>([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a", "d"]],
      ["d", ["e"]],
      ["e", []],
      ["f", ["g"]],
      ["g", ["f"]],
    ]);
    expect(circles(graph)).toEqual([
      ["a", "b", "c"],
      ["f", "g"],
    ]);
    expect(
      circles(
        new Map([
          ["x", ["y"]],
          ["y", []],
        ]),
      ),
    ).toEqual([]);
  });
});
