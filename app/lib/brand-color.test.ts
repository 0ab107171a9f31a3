import { describe, expect, it } from "vitest";
import {
  brandColorStyle,
  COLOR_CONTRAST,
  COLOR_FORMAT,
  colorProblem,
  contrast,
  deriveShades,
  parseHex,
} from "./brand-color";

describe("brand colour", () => {
  it("accepts today's indigo and dark brand colours; 600 is the colour itself", () => {
    expect(colorProblem("#4f39f6")).toBeNull();
    expect(colorProblem("#0b5d1e")).toBeNull();
    expect(colorProblem("#b00020")).toBeNull();
    expect(deriveShades("#0B5D1E")?.["600"]).toBe("#0b5d1e");
  });

  it("refuses colours white text is unreadable on, in German", () => {
    expect(colorProblem("#ffffff")).toBe(COLOR_CONTRAST);
    expect(colorProblem("#ffcc00")).toBe(COLOR_CONTRAST);
    expect(colorProblem("#22c55e")).toBe(COLOR_CONTRAST);
  });

  it("refuses what is no hex colour", () => {
    expect(colorProblem("red")).toBe(COLOR_FORMAT);
    expect(colorProblem("#12345")).toBe(COLOR_FORMAT);
    expect(colorProblem("#123;}")).toBe(COLOR_FORMAT);
  });

  it("every accepted colour keeps 4.5:1 for white on all dark steps", () => {
    for (const hex of ["#4f39f6", "#0b5d1e", "#1d4ed8", "#7c2d12", "#333333"]) {
      if (colorProblem(hex)) continue;
      const shades = deriveShades(hex) ?? {};
      for (const step of ["600", "700", "800", "900", "950"]) {
        expect(contrast([1, 1, 1], parseHex(shades[step]) ?? [1, 1, 1])).toBeGreaterThanOrEqual(
          4.5,
        );
      }
    }
  });

  it("sets the indigo custom properties, none for the default", () => {
    expect(brandColorStyle(null)).toBeUndefined();
    expect(brandColorStyle("#0b5d1e")?.["--color-indigo-600"]).toBe("#0b5d1e");
    expect(Object.keys(brandColorStyle("#0b5d1e") ?? {})).toHaveLength(11);
  });
});
