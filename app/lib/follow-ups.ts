import { z } from "zod";
import { addDays, berlinToday, type IsoDay, isIsoDay, weekday } from "./booking-calendar";

// Follow-ups ("Wiedervorlage", ADR 351): one open date per request with an optional short text,
// set in one click. The form's and the API's one schema; pure day arithmetic in Berlin days.

export const FOLLOW_UP_TEXT_MAX = 200;

/** The one-click choices, by the value their button posts as `preset`. */
export const FOLLOW_UP_PRESETS = {
  morgen: "Morgen",
  "3-tage": "In 3 Tagen",
  "naechste-woche": "Nächste Woche",
} as const;
export type FollowUpPreset = keyof typeof FOLLOW_UP_PRESETS;
export const isFollowUpPreset = (value: unknown): value is FollowUpPreset =>
  typeof value === "string" && Object.hasOwn(FOLLOW_UP_PRESETS, value);

/** The day a preset names, seen from `today`: tomorrow, in three days, Monday of next week. */
export function presetDay(preset: FollowUpPreset, today: IsoDay): IsoDay {
  if (preset === "morgen") return addDays(today, 1);
  if (preset === "3-tage") return addDays(today, 3);
  // Monday of the next calendar week (Monday itself: the one after).
  const w = weekday(today);
  return addDays(today, w === 0 ? 1 : 8 - w);
}

/** The same calendar day one year later (29 Feb → 1 Mar). */
export function oneYearAfter(day: IsoDay): IsoDay {
  const [y, m, d] = day.split("-").map(Number);
  return new Date(Date.UTC(y + 1, m - 1, d)).toISOString().slice(0, 10);
}

export const FOLLOW_UP_MESSAGES = {
  dayRequired: "Bitte wählen Sie ein Datum.",
  dayInvalid: "Bitte geben Sie ein gültiges Datum ein (TT.MM.JJJJ).",
  dayPast: "Das Datum liegt in der Vergangenheit. Bitte wählen Sie heute oder einen späteren Tag.",
  dayTooFar: "Das Datum darf höchstens ein Jahr in der Zukunft liegen.",
  textTooLong: `Der Hinweis darf höchstens ${FOLLOW_UP_TEXT_MAX} Zeichen lang sein.`,
  notFound: "Zu dieser Anfrage gibt es keine offene Wiedervorlage.",
} as const;

/**
 * "Wiedervorlage setzen": a preset (`morgen`, `3-tage`, `naechste-woche`, the buttons) or a day
 * (`due`, YYYY-MM-DD), plus an optional text. Today counts from the Berlin day of the parse, on
 * the client and on the server alike; the output is always a day.
 */
export const FollowUpSchema = z
  .object({
    preset: z
      .string()
      .optional()
      .transform((v) => (v === "" ? undefined : v))
      .refine((v) => v === undefined || isFollowUpPreset(v), FOLLOW_UP_MESSAGES.dayInvalid),
    due: z
      .string({ error: FOLLOW_UP_MESSAGES.dayInvalid })
      .trim()
      .optional()
      .transform((v) => (v === "" ? undefined : v)),
    text: z
      .string({ error: FOLLOW_UP_MESSAGES.textTooLong })
      .trim()
      .max(FOLLOW_UP_TEXT_MAX, FOLLOW_UP_MESSAGES.textTooLong)
      // One line: it is shown in lists and the morning mail.
      .transform((s) => s.replace(/\s+/g, " "))
      .default(""),
  })
  .transform((input, ctx) => {
    const today = berlinToday();
    const day = isFollowUpPreset(input.preset) ? presetDay(input.preset, today) : input.due;
    const issue = (message: string) => {
      ctx.addIssue({ code: "custom", path: ["due"], message });
      return z.NEVER;
    };
    if (!day) return issue(FOLLOW_UP_MESSAGES.dayRequired);
    if (!isIsoDay(day)) return issue(FOLLOW_UP_MESSAGES.dayInvalid);
    if (day < today) return issue(FOLLOW_UP_MESSAGES.dayPast);
    if (day > oneYearAfter(today)) return issue(FOLLOW_UP_MESSAGES.dayTooFar);
    return { due: day, text: input.text };
  });
export type FollowUpInput = z.output<typeof FollowUpSchema>;

/** What answered an open follow-up meanwhile: the lead's reply (IMAP) or a booked demo. */
export const FOLLOW_UP_ANSWERS = ["reply", "booking"] as const;
export type FollowUpAnswer = (typeof FOLLOW_UP_ANSWERS)[number];
export const FOLLOW_UP_ANSWER_LABELS: Record<FollowUpAnswer, string> = {
  reply: "Antwort erhalten",
  booking: "Termin gebucht",
};

/** A request's follow-up as the request JSON, the tasks page and the API carry it. */
export type FollowUpJson = {
  id: number;
  requestId: number;
  /** The Berlin day it is due (YYYY-MM-DD). */
  due: string;
  text: string;
  /** Whose task it is (who set it last). */
  adminId: number;
  admin: string;
  createdAt: string;
  /** Set when it was finished ("Erledigt"); an open one has null. */
  doneAt: string | null;
  /** The lead answered or booked since it was set: nobody needs to chase. */
  answer: FollowUpAnswer | null;
  answeredAt: string | null;
};

/** One task of the tasks page: the follow-up with its request's name. */
export type TaskJson = FollowUpJson & { requestName: string };

export const TASK_BUCKETS = ["overdue", "today", "week", "later"] as const;
export type TaskBucket = (typeof TASK_BUCKETS)[number];
export const TASK_BUCKET_LABELS: Record<TaskBucket, string> = {
  overdue: "Überfällig",
  today: "Heute",
  week: "Diese Woche",
  later: "Später",
};

/** The last day of the Berlin week of `today` (Sunday). */
export const endOfWeek = (today: IsoDay): IsoDay => {
  const w = weekday(today);
  return addDays(today, w === 0 ? 0 : 7 - w);
};

/** Where a due day falls, seen from `today`. */
export function taskBucket(due: IsoDay, today: IsoDay): TaskBucket {
  if (due < today) return "overdue";
  if (due === today) return "today";
  return due <= endOfWeek(today) ? "week" : "later";
}

/** "heute", "morgen", "überfällig seit 02.12.2026", "am 09.12.2026". */
export function dueLabel(due: IsoDay, today: IsoDay): string {
  const [y, m, d] = due.split("-");
  const date = `${d}.${m}.${y}`;
  if (due === today) return "heute";
  if (due === addDays(today, 1)) return "morgen";
  return due < today ? `überfällig seit ${date}` : `am ${date}`;
}
