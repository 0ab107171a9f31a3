// Before any schema runs at module load (the defaults below parse): no eval under our CSP.
import "./zod-jitless.client";
import { z } from "zod";
import {
  type AvailabilityRules,
  clockMinutes,
  DEFAULT_WEEKLY_HOURS,
  WEEKDAY_KEYS,
  type WeeklyHours,
} from "./availability";
import { isIsoDay } from "./booking-calendar";
import { GERMAN_STATE_CODES, type GermanState } from "./holidays-states";
import { clampedSetting, NUMBER_SETTINGS } from "./setting-ranges";

export const INTERVAL_INVALID = "Bitte geben Sie eine Zeit von–bis an (bis nach von).";
export const INTERVAL_OVERLAP = "Die Zeiten eines Tages dürfen sich nicht überschneiden.";
export const BLOCKED_DAY_INVALID = "Bitte geben Sie ein gültiges Datum an.";
export const BLOCKED_RANGE_INVALID = "Das Ende darf nicht vor dem Anfang liegen.";

export const HoursIntervalSchema = z
  .object({
    from: z.string({ error: INTERVAL_INVALID }).trim(),
    to: z.string({ error: INTERVAL_INVALID }).trim(),
  })
  .refine((i) => clockMinutes(i.from) < clockMinutes(i.to), {
    message: INTERVAL_INVALID,
    path: ["to"],
  });

/** A weekday's intervals: each from < to, none overlapping (sorted by start). */
export const DayHoursSchema = z
  .array(HoursIntervalSchema)
  .superRefine((list, ctx) => {
    const sorted = list
      .map((i, index) => ({ index, from: clockMinutes(i.from), to: clockMinutes(i.to) }))
      .sort((a, b) => a.from - b.from);
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k].from < sorted[k - 1].to)
        ctx.addIssue({
          code: "custom",
          path: [sorted[k].index, "from"],
          message: INTERVAL_OVERLAP,
        });
    }
  })
  .transform((list) => [...list].sort((a, b) => clockMinutes(a.from) - clockMinutes(b.from)));

export const WeeklyHoursSchema = z.object(
  Object.fromEntries(
    WEEKDAY_KEYS.map((k) => [k, DayHoursSchema.default(DEFAULT_WEEKLY_HOURS[k])]),
  ) as {
    [K in (typeof WEEKDAY_KEYS)[number]]: z.ZodDefault<typeof DayHoursSchema>;
  },
);

export const BlockedRangeSchema = z
  .object({
    from: z.string({ error: BLOCKED_DAY_INVALID }).trim().refine(isIsoDay, BLOCKED_DAY_INVALID),
    to: z
      .string()
      .trim()
      .default("")
      .refine((v) => v === "" || isIsoDay(v), BLOCKED_DAY_INVALID),
    note: z.string().trim().max(200).default(""),
  })
  .refine((r) => r.to === "" || r.to >= r.from, { message: BLOCKED_RANGE_INVALID, path: ["to"] })
  .transform((r) => ({ ...r, to: r.to || r.from }));

/**
 * The built-in scheduler's week (ADR 264): working hours, step, buffers, daily maximum,
 * horizon, holidays and blocked days. Slot length and minimum notice stay where they were
 * (the event type's duration, `bookingLeadTime`). Every default reproduces the former slots.
 */
export const SchedulingSettingsSchema = z
  .object({
    weeklyHours: WeeklyHoursSchema.default(DEFAULT_WEEKLY_HOURS),
    slotStepMinutes: clampedSetting("scheduling.slotStepMinutes"),
    bufferBeforeMinutes: clampedSetting("scheduling.bufferBeforeMinutes"),
    bufferAfterMinutes: clampedSetting("scheduling.bufferAfterMinutes"),
    maxPerDay: clampedSetting("scheduling.maxPerDay"),
    horizonDays: clampedSetting("scheduling.horizonDays"),
    /** Nationwide public holidays (DE, type public) block the day. */
    publicHolidays: z.boolean().default(true),
    /** A federal state adds its own holidays; null: only the nationwide ones. */
    holidayState: z
      .string()
      .nullish()
      .transform((v): GermanState | null =>
        v && (GERMAN_STATE_CODES as string[]).includes(v) ? (v as GermanState) : null,
      ),
    blockChristmasEve: z.boolean().default(true),
    blockNewYearsEve: z.boolean().default(true),
    blockedDays: z.array(BlockedRangeSchema).max(200).default([]),
    /** Set once an admin saved this section (go-live item `scheduling`). */
    hoursReviewed: z.boolean().default(false),
  })
  .prefault({} as never);

export type SchedulingSettings = z.infer<typeof SchedulingSettingsSchema>;

export const DEFAULT_SCHEDULING: SchedulingSettings = SchedulingSettingsSchema.parse(undefined);

/** The longest booking horizon (days); also how far ahead the team calendar's busy times reach. */
export const MAX_HORIZON_DAYS = NUMBER_SETTINGS["scheduling.horizonDays"].max;

/**
 * How many days ahead the team calendar's busy times are imported: the horizon, or with an
 * unlimited horizon (0) the longest one — slots beyond it are not offered while feeds exist.
 */
export const busyWindowDays = (s: Pick<SchedulingSettings, "horizonDays">) =>
  s.horizonDays > 0 ? s.horizonDays : MAX_HORIZON_DAYS;

/**
 * The availability function's rules. With team calendar feeds (`busyFeeds`) an unlimited horizon
 * ends where the imported busy times end: no slot is offered that the calendar could not block.
 */
export function availabilityRules(s: SchedulingSettings, busyFeeds = false): AvailabilityRules {
  return {
    weeklyHours: s.weeklyHours as WeeklyHours,
    slotStepMinutes: s.slotStepMinutes,
    bufferBeforeMinutes: s.bufferBeforeMinutes,
    bufferAfterMinutes: s.bufferAfterMinutes,
    maxPerDay: s.maxPerDay,
    horizonDays: busyFeeds ? busyWindowDays(s) : s.horizonDays,
  };
}
