import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  BRAND_COLOUR_PAIRS,
  brandColorStyle,
  COLOR_CONTRAST,
  COLOR_FORMAT,
  colorProblem,
  contrast,
  DECORATIVE_BRAND_CLASSES,
  darkerSuggestion,
  deriveShades,
  failingPairs,
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
    expect(colorProblem("#ffffff")).toContain(COLOR_CONTRAST);
    expect(colorProblem("#ffcc00")).toContain(COLOR_CONTRAST);
    expect(colorProblem("#22c55e")).toContain(COLOR_CONTRAST);
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

/** Every `indigo-*` utility used in app/ (with its variants, e.g. `dark:hover:bg-indigo-950`). */
function brandClassesInApp(): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      if (statSync(file).isDirectory()) walk(file);
      else if (
        /\.(tsx?|css)$/.test(name) &&
        !/\.test\.tsx?$/.test(name) &&
        !name.startsWith("brand-color")
      ) {
        const text = readFileSync(file, "utf8");
        for (const m of text.matchAll(
          /[\w:[\]()-]*(?:text|bg|border|border-l|border-b|ring|outline|from|to|fill|stroke|decoration)-indigo-\d+(?:\/\d+)?/g,
        ))
          if (!found.has(m[0])) found.set(m[0], file);
      }
    }
  };
  walk("app");
  return found;
}

describe("brand colour: every use is checked (ADR 341)", () => {
  it("names every indigo utility of the app in a checked pair or as decorative", () => {
    const covered = new Set([
      ...BRAND_COLOUR_PAIRS.flatMap((p) => p.classes),
      ...DECORATIVE_BRAND_CLASSES,
    ]);
    const unchecked = [...brandClassesInApp()]
      .filter(([cls]) => !covered.has(cls))
      .map(([cls, file]) => `${cls} (${file})`);
    expect(unchecked).toEqual([]);
  });

  it("dark green #0b5d1e passes every pair, in light and in dark mode", () => {
    expect(failingPairs("#0b5d1e")).toEqual([]);
    expect(colorProblem("#0b5d1e")).toBeNull();
  });

  it("a light yellow is refused in German, with a darker colour of its hue that passes", () => {
    for (const yellow of ["#fff176", "#ffeb3b", "#fef08a"]) {
      const problem = colorProblem(yellow);
      expect(problem).toContain(COLOR_CONTRAST);
      // Its light shades fail as text in dark mode too, not only white on its buttons.
      expect(failingPairs(yellow).some((p) => p.mode === "dark" && p.fg !== "white")).toBe(true);
      const darker = darkerSuggestion(yellow);
      expect(darker).toMatch(/^#[0-9a-f]{6}$/);
      expect(problem).toContain(darker as string);
      expect(failingPairs(darker as string)).toEqual([]);
    }
  });

  it("every colour it accepts keeps 4.5:1 for text and 3:1 for focus outlines in dark mode", () => {
    const dark = BRAND_COLOUR_PAIRS.filter((p) => p.mode === "dark");
    let accepted = 0;
    for (let h = 0; h < 360; h += 15)
      for (const l of [0.2, 0.3, 0.4, 0.5, 0.6]) {
        const hex = `#${[0, 8, 4]
          .map((n) => {
            const k = (n + h / 30) % 12;
            const v = l - 0.8 * Math.min(l, 1 - l) * Math.max(-1, Math.min(k - 3, 9 - k, 1));
            return Math.round(v * 255)
              .toString(16)
              .padStart(2, "0");
          })
          .join("")}`;
        if (colorProblem(hex)) continue;
        accepted++;
        expect(
          failingPairs(hex).filter((p) => dark.includes(p)),
          hex,
        ).toEqual([]);
      }
    expect(accepted).toBeGreaterThan(20);
  });
});
