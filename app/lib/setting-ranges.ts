import { z } from "zod";

/**
 * Every whole-number setting of the configuration (ADR 311): its path, the range it must lie in
 * and its default — one table for both faces of the rule. `ConfigurationSchema` (the API and the
 * stored document) clamps a value into the range as the spec says (`clampedSetting`); the settings
 * page refuses one outside it with a German message at the field (ADR 235, `settingNumber`), and
 * its inputs carry the range as min/max. A leaf module: `configuration.ts` and the schemas it is
 * built from (`scheduling-settings.ts`, `blocklist.ts`) and `settings-form.ts` all read it.
 */
export const NUMBER_SETTINGS = {
  "uploadSettings.maxFilesPerRequest": { min: 1, max: 10, default: 5 },
  "uploadSettings.maxFileSizeMB": { min: 1, max: 25, default: 10 },
  "uploadSettings.maxTotalSizeMB": { min: 10, max: 100, default: 50 },
  "bookingLeadTime.days": { min: 0, max: 365, default: 1 },
  "bookingLeadTime.hours": { min: 0, max: 24, default: 0 },
  "retention.requestMonths": { min: 1, max: 120, default: 24 },
  "retention.outboxDays": { min: 1, max: 365, default: 30 },
  "retention.auditDays": { min: 30, max: 3650, default: 365 },
  "scheduling.slotStepMinutes": { min: 0, max: 240, default: 0 },
  "scheduling.bufferBeforeMinutes": { min: 0, max: 240, default: 0 },
  "scheduling.bufferAfterMinutes": { min: 0, max: 240, default: 0 },
  "scheduling.maxPerDay": { min: 0, max: 50, default: 0 },
  "scheduling.horizonDays": { min: 0, max: 730, default: 0 },
  "spam.quarantineDays": { min: 1, max: 365, default: 30 },
  /** Held requests' bookings a Berlin day that hold their slot (ADR 355); 0 = none holds one. */
  "spam.heldBookingsPerDay": { min: 0, max: 50, default: 3 },
  "ai.dailyLimit": { min: 0, max: 100_000, default: 200 },
  /** The admins' own AI actions per day (ADR 318): a budget visitors' requests never touch. */
  "ai.manualDailyLimit": { min: 0, max: 100_000, default: 100 },
  "transcription.dailyLimit": { min: 0, max: 100_000, default: 100 },
  /** Requests a day that the script-free question releases (ADR 326); 0 = no question. */
  "scriptFree.dailyLimit": { min: 0, max: 1000, default: 20 },
  /** The promises' days (ADR 346): first contact and the trial version. */
  "pipeline.promises.contactDays": { min: 1, max: 10, default: 1 },
  "pipeline.promises.trialDays": { min: 1, max: 10, default: 3 },
  /** Days a feedback entry of the accessibility statement is kept (ADR 340). */
  "accessibility.feedbackDays": { min: 30, max: 3650, default: 365 },
} as const satisfies Record<string, { min: number; max: number; default: number }>;

export type NumberSettingPath = keyof typeof NUMBER_SETTINGS;

export const isNumberSettingPath = (name: string): name is NumberSettingPath =>
  Object.hasOwn(NUMBER_SETTINGS, name);

/**
 * The stored document's and the API's rule: a number (or numeric text) rounded and clamped into
 * the range; anything else, or nothing, is the default.
 */
export function clampedSetting(path: NumberSettingPath) {
  const { min, max, default: fallback } = NUMBER_SETTINGS[path];
  return z
    .preprocess(
      (v) => {
        const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
        return typeof n === "number" && Number.isFinite(n) ? n : fallback;
      },
      z.number().transform((n) => Math.min(max, Math.max(min, Math.round(n)))),
    )
    .default(fallback);
}

/** The German message of a number outside its range (also the browser's bubble, with JS). */
export function settingRangeMessage(path: NumberSettingPath): string {
  const { min, max } = NUMBER_SETTINGS[path];
  return `Bitte geben Sie eine ganze Zahl von ${min} bis ${max} ein.`;
}

/** The settings page's rule: a whole number inside the range; empty, fractional or outside: refused. */
export function settingNumber(path: NumberSettingPath) {
  const { min, max } = NUMBER_SETTINGS[path];
  const error = settingRangeMessage(path);
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

/** A posted number as the schema sees it: empty is no number (NaN), absent stays absent. */
const postedNumber = (v: unknown) =>
  typeof v === "string" ? (v.trim() === "" ? Number.NaN : Number(v)) : v;

/**
 * An object of number fields read from the posted strings here, not by Conform's coercion: a field
 * that is posted empty is refused like every number (ADR 311), one that is not posted at all (a
 * hand-made post) stays absent, so its optional value keeps the stored one. Typed as the object
 * (Conform reads the fields from its shape).
 */
export function postedNumbers<T extends z.ZodObject>(schema: T): T {
  return z.preprocess((v) => {
    if (!v || typeof v !== "object") return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, postedNumber(x)]));
  }, schema) as unknown as T;
}
