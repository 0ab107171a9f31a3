/**
 * Where the UI draws with the brand colour's shades (issue 29, ADR 269 and 341): the pairs of
 * colours the contrast rule of `brand-color.ts` checks for every colour before it can be saved.
 */

/** Tailwind 4's neutral colours the brand's shades meet (sRGB of its OKLCH values). */
export const FIXED = {
  white: "#ffffff",
  "slate-50": "#f8fafc",
  "slate-100": "#f1f5f9",
  "slate-200": "#e2e8f0",
  "slate-700": "#314158",
  "slate-900": "#0f172b",
  "slate-950": "#020618",
} as const;
export type Fixed = keyof typeof FIXED;
/** A step of the brand's scale (Tailwind's indigo steps, brand-color.ts). */
export type Step =
  | "50"
  | "100"
  | "200"
  | "300"
  | "400"
  | "500"
  | "600"
  | "700"
  | "800"
  | "900"
  | "950";
/** A colour of a pair: a shade of the brand, a fixed colour, or a shade at some opacity over a fixed one. */
export type Paint = Step | Fixed | { step: Step; alpha: number; over: Fixed };

/**
 * Every place the UI draws with the brand's shades (the `indigo-*` utilities), as the pairs of
 * colours that must stay apart: text on its background at 4.5:1 (WCAG 1.4.3), focus outlines and
 * the active tab's underline against the page at 3:1 (1.4.11) — in light and in dark mode. The
 * classes each pair covers are listed; `brand-color.test.ts` finds every `indigo-*` class in
 * app/ and fails for one that no pair (or DECORATIVE_BRAND_CLASSES) names, so a new use of the
 * colour is checked before a colour that fails it can be saved (ADR 341).
 */
export const BRAND_COLOUR_PAIRS: {
  fg: Paint;
  bg: Paint;
  min: 4.5 | 3;
  mode: "light" | "dark";
  where: string;
  classes: string[];
}[] = [
  // Light mode: the accent as a background under white text, and as text on light surfaces.
  ...(["light", "dark"] as const).flatMap((mode) => [
    {
      fg: "white" as const,
      bg: "600" as const,
      min: 4.5 as const,
      mode,
      where: "Knöpfe, gewählte Zeiten und Tage, Hinweisbanner",
      classes: [
        "bg-indigo-600",
        "has-[:checked]:bg-indigo-600",
        "border-indigo-600",
        "has-[:checked]:border-indigo-600",
      ],
    },
    {
      fg: "white" as const,
      bg: "700" as const,
      min: 4.5 as const,
      mode,
      where: "Knöpfe beim Überfahren, Hinweisbanner (dunkel), „Neue Antwort“",
      classes: ["hover:bg-indigo-700", "bg-indigo-700", "dark:bg-indigo-700"],
    },
  ]),
  {
    fg: "600",
    bg: "white",
    min: 4.5,
    mode: "light",
    where: "„Admin-Bereich“, Links der Kontoseiten, Diagramme",
    classes: ["text-indigo-600"],
  },
  {
    fg: "700",
    bg: "white",
    min: 4.5,
    mode: "light",
    where: "Links, aktiver Reiter, Symbole",
    classes: ["text-indigo-700"],
  },
  {
    fg: "700",
    bg: "slate-50",
    min: 4.5,
    mode: "light",
    where: "Links auf grauen Flächen",
    classes: [],
  },
  { fg: "700", bg: "50", min: 4.5, mode: "light", where: "Links in Hinweiskästen", classes: [] },
  {
    fg: "800",
    bg: "50",
    min: 4.5,
    mode: "light",
    where: "Hinweise, Datei-Knopf, Nachrichtenkopf",
    classes: ["text-indigo-800", "file:text-indigo-800", "file:bg-indigo-50", "bg-indigo-50"],
  },
  {
    fg: "900",
    bg: "100",
    min: 4.5,
    mode: "light",
    where: "Filter-Chips, Zähler, „Antwort vom Kunden“",
    classes: ["text-indigo-900", "bg-indigo-100", "hover:file:bg-indigo-100"],
  },
  {
    fg: "900",
    bg: "200",
    min: 4.5,
    mode: "light",
    where: "Filter-Chips beim Überfahren",
    classes: ["hover:bg-indigo-200", "hover:text-indigo-900"],
  },
  { fg: "900", bg: "50", min: 4.5, mode: "light", where: "Info-Meldungen", classes: [] },
  {
    fg: "950",
    bg: "50",
    min: 4.5,
    mode: "light",
    where: "KI-Zusammenfassung",
    classes: ["text-indigo-950"],
  },
  {
    fg: "slate-700",
    bg: "50",
    min: 4.5,
    mode: "light",
    where: "Zusammenfassung im Buchungsdialog",
    classes: ["hover:bg-indigo-50"],
  },
  {
    fg: "500",
    bg: "white",
    min: 3,
    mode: "light",
    where: "Fokusrahmen",
    classes: [
      // The board's highlighted column and lifted card (ADR 347): a frame like the focus ring.
      "border-indigo-500",
      "ring-indigo-500",
      "focus-visible:outline-indigo-500",
      "focus-visible:ring-indigo-500",
      "peer-focus-visible:ring-indigo-500",
      "focus:border-indigo-500",
    ],
  },
  {
    fg: "600",
    bg: "white",
    min: 3,
    mode: "light",
    where: "Unterstrich des aktiven Reiters",
    classes: [],
  },
  // Dark mode: the light shades as text on the dark page, cards and accent surfaces.
  {
    fg: "300",
    bg: "slate-900",
    min: 4.5,
    mode: "dark",
    where: "Links, aktiver Reiter, Symbole auf Karten",
    classes: ["dark:text-indigo-300"],
  },
  { fg: "300", bg: "slate-950", min: 4.5, mode: "dark", where: "Links auf der Seite", classes: [] },
  {
    fg: "300",
    bg: "950",
    min: 4.5,
    mode: "dark",
    where: "Links in Hinweiskästen",
    classes: ["dark:bg-indigo-950", "dark:hover:bg-indigo-950"],
  },
  {
    fg: "400",
    bg: "slate-900",
    min: 4.5,
    mode: "dark",
    where: "„Admin-Bereich“, Links der Kontoseiten, Diagramme",
    classes: ["dark:text-indigo-400"],
  },
  {
    fg: "400",
    bg: "slate-950",
    min: 4.5,
    mode: "dark",
    where: "Links der Kontoseiten",
    classes: [],
  },
  {
    fg: "100",
    bg: "950",
    min: 4.5,
    mode: "dark",
    where: "Filter-Chips, Zähler, Info-Meldungen, KI-Zusammenfassung",
    classes: ["dark:text-indigo-100"],
  },
  {
    fg: "100",
    bg: "slate-900",
    min: 4.5,
    mode: "dark",
    where: "Links beim Überfahren",
    classes: ["dark:hover:text-indigo-100"],
  },
  {
    fg: "50",
    bg: "950",
    min: 4.5,
    mode: "dark",
    where: "Bestätigung mit Passwort oder Code (Step-up)",
    classes: ["dark:text-indigo-50"],
  },
  {
    fg: "200",
    bg: "950",
    min: 4.5,
    mode: "dark",
    where: "Hinweise, „Antwort vom Kunden“",
    classes: ["dark:text-indigo-200"],
  },
  {
    fg: "200",
    bg: { step: "950", alpha: 0.4, over: "slate-900" },
    min: 4.5,
    mode: "dark",
    where: "Kopf einer Kundenantwort",
    classes: ["dark:bg-indigo-950/40"],
  },
  {
    fg: "slate-950",
    bg: "400",
    min: 4.5,
    mode: "dark",
    where: "„Neue Antwort“",
    classes: ["dark:bg-indigo-400"],
  },
  {
    fg: "slate-100",
    bg: "950",
    min: 4.5,
    mode: "dark",
    where: "Kalendertage beim Überfahren",
    classes: [],
  },
  {
    fg: "slate-200",
    bg: "950",
    min: 4.5,
    mode: "dark",
    where: "Zusammenfassung im Buchungsdialog",
    classes: [],
  },
  {
    fg: "500",
    bg: "slate-900",
    min: 3,
    mode: "dark",
    where: "Fokusrahmen auf Karten",
    classes: [],
  },
  {
    fg: "500",
    bg: "slate-950",
    min: 3,
    mode: "dark",
    where: "Fokusrahmen auf der Seite",
    classes: [],
  },
  {
    fg: "400",
    bg: "slate-900",
    min: 3,
    mode: "dark",
    where: "Unterstrich des aktiven Reiters",
    classes: ["dark:border-indigo-400"],
  },
];

/**
 * `indigo-*` classes no pair needs to check: borders and tints that only decorate (the text on
 * them is checked by its pair), the gradient behind the hero's dark text, disabled buttons
 * (WCAG 1.4.3 exempts inactive controls) and the calendar's "today" ring beside the day's number.
 */
export const DECORATIVE_BRAND_CLASSES = [
  // Tints and borders around content that brings its own colours (board column, step-up box).
  "dark:bg-indigo-950/50",
  "border-indigo-300",
  "dark:border-indigo-800",
  "border-indigo-200",
  "dark:border-indigo-900",
  "border-l-indigo-500",
  "dark:border-l-indigo-400",
  "hover:border-indigo-400",
  "from-indigo-50",
  "focus:ring-indigo-500/30",
  "ring-indigo-400",
  "disabled:bg-indigo-300",
  "dark:disabled:bg-indigo-900",
  "dark:disabled:text-indigo-300",
];
