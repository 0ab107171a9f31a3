import { z } from "zod";
import { WEEKDAY_KEYS } from "./availability";
import { GERMAN_STATE_CODES } from "./holidays-states";
import { BlockedRangeSchema, DayHoursSchema } from "./scheduling-settings";

/** Weekday labels of the section "Terminbuchung", Monday first (the order of the page). */
export const WEEKDAY_NAMES: [key: (typeof WEEKDAY_KEYS)[number], name: string][] = [
  ["mon", "Montag"],
  ["tue", "Dienstag"],
  ["wed", "Mittwoch"],
  ["thu", "Donnerstag"],
  ["fri", "Freitag"],
  ["sat", "Samstag"],
  ["sun", "Sonntag"],
];

type Numbers = Record<
  "slotStepMinutes" | "bufferBeforeMinutes" | "bufferAfterMinutes" | "maxPerDay" | "horizonDays",
  z.ZodNumber
>;

/**
 * The scheduling part of the settings form (names `scheduling.weeklyHours.mon[0].from`, …): the
 * same interval and range rules as the configuration; the number fields come with the form's
 * range messages. The lists (intervals per weekday, blocked days) are Conform lists.
 */
export const SchedulingFormSchema = (numbers: Numbers) =>
  z.object({
    weeklyHours: z.object(
      Object.fromEntries(WEEKDAY_KEYS.map((k) => [k, DayHoursSchema.default([])])) as Record<
        (typeof WEEKDAY_KEYS)[number],
        z.ZodDefault<typeof DayHoursSchema>
      >,
    ),
    ...numbers,
    publicHolidays: z.boolean().default(false),
    holidayState: z
      .string()
      .nullish()
      .transform((v) => (v && (GERMAN_STATE_CODES as string[]).includes(v) ? v : null)),
    blockChristmasEve: z.boolean().default(false),
    blockNewYearsEve: z.boolean().default(false),
    blockedDays: z.array(BlockedRangeSchema).max(200).default([]),
  });

/** The message of a list edit without JS (not saved yet). */
export const SCHEDULING_LIST_MESSAGES: Record<string, Partial<Record<string, string>>> = {
  ...Object.fromEntries(
    WEEKDAY_KEYS.map((k) => [
      `scheduling.weeklyHours.${k}`,
      {
        insert: "Zeitraum hinzugefügt – zum Übernehmen bitte speichern.",
        remove: "Zeitraum entfernt – zum Übernehmen bitte speichern.",
      },
    ]),
  ),
  "scheduling.blockedDays": {
    insert: "Gesperrter Zeitraum hinzugefügt – zum Übernehmen bitte speichern.",
    remove: "Gesperrter Zeitraum entfernt – zum Übernehmen bitte speichern.",
  },
};
