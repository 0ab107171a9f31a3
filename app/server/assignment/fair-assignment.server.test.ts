import { describe, expect, it } from "vitest";
import { nextInTurn } from "./fair-assignment.server";

describe("nextInTurn (fair assignment's order)", () => {
  const order = [4, 2, 9];
  const all = () => true;
  it("goes round the list in its order, starting at the top", () => {
    expect(nextInTurn(order, null, all)).toBe(4);
    expect(nextInTurn(order, 4, all)).toBe(2);
    expect(nextInTurn(order, 2, all)).toBe(9);
    expect(nextInTurn(order, 9, all)).toBe(4);
  });
  it("skips who is not eligible (inactive, absent) and wraps; nobody left: null", () => {
    expect(nextInTurn(order, 4, (id) => id !== 2)).toBe(9);
    expect(nextInTurn(order, 9, (id) => id === 9)).toBe(9);
    expect(nextInTurn(order, 4, () => false)).toBeNull();
  });
  it("a pointer no longer in the list starts at the top", () => {
    expect(nextInTurn(order, 77, all)).toBe(4);
  });
});
