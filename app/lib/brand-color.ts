import { BRAND_COLOUR_PAIRS, FIXED, type Fixed, type Paint } from "./brand-color-uses";

export { BRAND_COLOUR_PAIRS, DECORATIVE_BRAND_CLASSES } from "./brand-color-uses";

/**
 * The brand colour (ADR 269): the accent shades the UI uses (Tailwind's indigo scale,
 * which buttons, links and focus rings use) derived from one hex colour in OKLCH, keeping its hue
 * and the scale's lightness steps; 600 is the colour itself. Pure, used by the settings check and
 * the root layout (CSS custom properties on <html>).
 */

export const COLOR_FORMAT = "Bitte geben Sie eine Farbe als Hex-Wert ein, z. B. #4f39f6.";
export const COLOR_CONTRAST =
  "Mit dieser Farbe (oder einer ihrer Abstufungen, im hellen oder dunklen Modus) erreicht Schrift nicht überall das Kontrastverhältnis 4,5:1. Bitte wählen Sie eine dunklere Farbe.";

/** Tailwind 4's indigo: lightness and chroma per step (hue is the brand's). */
const SCALE: Record<string, [number, number]> = {
  "50": [0.962, 0.018],
  "100": [0.93, 0.034],
  "200": [0.87, 0.065],
  "300": [0.785, 0.115],
  "400": [0.673, 0.182],
  "500": [0.585, 0.233],
  "600": [0.511, 0.262],
  "700": [0.457, 0.24],
  "800": [0.398, 0.195],
  "900": [0.359, 0.144],
  "950": [0.257, 0.09],
};
const HEX = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i;

export function parseHex(hex: string): [number, number, number] | null {
  const m = HEX.exec(hex.trim());
  if (!m) return null;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  return [0, 2, 4].map((i) => Number.parseInt(h.slice(i, i + 2), 16) / 255) as [
    number,
    number,
    number,
  ];
}

const toLinear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
const fromLinear = (c: number) => (c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055);

/** WCAG relative luminance of an sRGB colour (0..1 channels). */
export function luminance([r, g, b]: [number, number, number]) {
  return 0.2126 * toLinear(r) + 0.7152 * toLinear(g) + 0.0722 * toLinear(b);
}

export function contrast(a: [number, number, number], b: [number, number, number]) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

function toOklch([r, g, b]: [number, number, number]): [number, number, number] {
  const [lr, lg, lb] = [r, g, b].map(toLinear);
  const l = Math.cbrt(0.4122214708 * lr + 0.5363325363 * lg + 0.0514459929 * lb);
  const m = Math.cbrt(0.2119034982 * lr + 0.6806995451 * lg + 0.1073969566 * lb);
  const s = Math.cbrt(0.0883024619 * lr + 0.2817188376 * lg + 0.6299787005 * lb);
  const L = 0.2104542553 * l + 0.793617785 * m - 0.0040720468 * s;
  const A = 1.9779984951 * l - 2.428592205 * m + 0.4505937099 * s;
  const B = 0.0259040371 * l + 0.7827717662 * m - 0.808675766 * s;
  return [L, Math.hypot(A, B), Math.atan2(B, A)];
}

/** OKLCH → linear sRGB (may be out of gamut). */
function oklchToLinear(L: number, C: number, h: number): [number, number, number] {
  const A = C * Math.cos(h);
  const B = C * Math.sin(h);
  const l = (L + 0.3963377774 * A + 0.2158037573 * B) ** 3;
  const m = (L - 0.1055613458 * A - 0.0638541728 * B) ** 3;
  const s = (L - 0.0894841775 * A - 1.291485548 * B) ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707614701 * s,
  ];
}

/** The colour at L, C, h, with chroma reduced until it fits sRGB. */
function oklchToRgb(L: number, C: number, h: number): [number, number, number] {
  let chroma = C;
  for (let i = 0; i < 40; i++) {
    const lin = oklchToLinear(L, chroma, h);
    if (lin.every((c) => c >= -0.0001 && c <= 1.0001)) {
      return lin.map((c) => fromLinear(Math.min(1, Math.max(0, c)))) as [number, number, number];
    }
    chroma *= 0.9;
  }
  const lin = oklchToLinear(L, 0, h);
  return lin.map((c) => fromLinear(Math.min(1, Math.max(0, c)))) as [number, number, number];
}

const toHex = (rgb: [number, number, number]) =>
  `#${rgb
    .map((c) =>
      Math.round(c * 255)
        .toString(16)
        .padStart(2, "0"),
    )
    .join("")}`;

/** The accent shades (step → hex) for a brand colour; null when it is no hex colour. */
export function deriveShades(hex: string): Record<string, string> | null {
  const rgb = parseHex(hex);
  if (!rgb) return null;
  const [L, C, h] = toOklch(rgb);
  // Relative to indigo-600: a greyish brand colour gets greyish shades, a darker one darker ones.
  const chroma = C / SCALE["600"][1];
  const shift = L - SCALE["600"][0];
  const shades: Record<string, string> = {};
  for (const [step, [l, c]] of Object.entries(SCALE)) {
    if (step === "600") shades[step] = toHex(rgb);
    else {
      // Light steps keep their lightness (they are backgrounds and text on dark); dark steps follow.
      const lightness = Number(step) > 600 ? Math.max(0.15, l + shift) : l;
      shades[step] = toHex(oklchToRgb(lightness, c * chroma, h));
    }
  }
  return shades;
}

const paint = (shades: Record<string, string>, p: Paint): [number, number, number] | null => {
  if (typeof p === "object") {
    const top = parseHex(shades[p.step]);
    const under = parseHex(FIXED[p.over]);
    if (!top || !under) return null;
    // Opacity over the surface below, blended in sRGB as the browser composites.
    return top.map((c, i) => c * p.alpha + (under[i] as number) * (1 - p.alpha)) as [
      number,
      number,
      number,
    ];
  }
  return parseHex(p in FIXED ? FIXED[p as Fixed] : shades[p]);
};

/** The pairs of BRAND_COLOUR_PAIRS a colour's shades fail (empty: every use stays readable). */
export function failingPairs(hex: string) {
  const shades = deriveShades(hex);
  if (!shades) return BRAND_COLOUR_PAIRS;
  return BRAND_COLOUR_PAIRS.filter(({ fg, bg, min }) => {
    const a = paint(shades, fg);
    const b = paint(shades, bg);
    return !a || !b || contrast(a, b) < min;
  });
}

/** Why a colour is refused (German), or null when every use of its shades stays readable. */
export function colorProblem(hex: string): string | null {
  if (!deriveShades(hex)) return COLOR_FORMAT;
  if (failingPairs(hex).length === 0) return null;
  const darker = darkerSuggestion(hex);
  return darker
    ? `${COLOR_CONTRAST} Zum Beispiel ${darker} (der gleiche Farbton, dunkler).`
    : COLOR_CONTRAST;
}

/**
 * The nearest colour of the same hue that passes every pair: the lightness lowered step by step
 * (a light yellow becomes an olive), or null when none does.
 */
export function darkerSuggestion(hex: string): string | null {
  const rgb = parseHex(hex);
  if (!rgb) return null;
  const [L, C, h] = toOklch(rgb);
  for (let lightness = Math.min(L, 0.75); lightness > 0.15; lightness -= 0.01) {
    const candidate = toHex(oklchToRgb(lightness, C, h));
    if (failingPairs(candidate).length === 0) return candidate;
  }
  return null;
}

/** The CSS custom properties that recolour the accent (`--color-indigo-*`), for <html style>. */
export function brandColorStyle(hex: string | null): Record<string, string> | undefined {
  const shades = hex ? deriveShades(hex) : null;
  if (!shades) return undefined;
  return Object.fromEntries(Object.entries(shades).map(([s, v]) => [`--color-indigo-${s}`, v]));
}
