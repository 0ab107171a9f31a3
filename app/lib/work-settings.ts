import { z } from "zod";
import { isIsoDay } from "./booking-calendar";

// An admin's own working settings in "Account-Einstellungen" (ADRs 352, 353): the morning digest
// (on by default) and an absence from–to (inclusive Berlin days), which fair assignment skips.

export const WORK_MESSAGES = {
  dayInvalid: "Bitte geben Sie ein gültiges Datum ein (TT.MM.JJJJ).",
  fromRequired: "Bitte geben Sie an, ab wann Sie abwesend sind.",
  untilRequired: "Bitte geben Sie an, bis wann Sie abwesend sind.",
  untilBeforeFrom: "Das Ende der Abwesenheit liegt vor ihrem Beginn.",
  tooLong: "Eine Abwesenheit darf höchstens ein Jahr dauern.",
  saved: "Einstellungen gespeichert.",
} as const;

const optionalDay = z
  .string({ error: WORK_MESSAGES.dayInvalid })
  .trim()
  .nullish()
  .transform((v) => v || null)
  .refine((v) => v === null || isIsoDay(v), WORK_MESSAGES.dayInvalid);

/** "Morgenübersicht und Abwesenheit": the form's and `PUT /api/admin/account/preferences`'s schema. */
export const WorkSettingsSchema = z
  .object({
    morningDigest: z.boolean().default(false),
    absentFrom: optionalDay,
    absentUntil: optionalDay,
  })
  .superRefine((v, ctx) => {
    if (v.absentFrom && !v.absentUntil)
      ctx.addIssue({ code: "custom", path: ["absentUntil"], message: WORK_MESSAGES.untilRequired });
    if (!v.absentFrom && v.absentUntil)
      ctx.addIssue({ code: "custom", path: ["absentFrom"], message: WORK_MESSAGES.fromRequired });
    if (v.absentFrom && v.absentUntil) {
      if (v.absentUntil < v.absentFrom)
        ctx.addIssue({
          code: "custom",
          path: ["absentUntil"],
          message: WORK_MESSAGES.untilBeforeFrom,
        });
      else if (Date.parse(v.absentUntil) - Date.parse(v.absentFrom) > 366 * 86_400_000)
        ctx.addIssue({ code: "custom", path: ["absentUntil"], message: WORK_MESSAGES.tooLong });
    }
  });
export type WorkSettings = z.output<typeof WorkSettingsSchema>;

/** Whether an admin with this absence is away on `day` (both ends included). */
export const isAbsentOn = (
  settings: Pick<WorkSettings, "absentFrom" | "absentUntil">,
  day: string,
): boolean =>
  Boolean(
    settings.absentFrom &&
      settings.absentUntil &&
      settings.absentFrom <= day &&
      day <= settings.absentUntil,
  );
