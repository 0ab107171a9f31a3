import { z } from "zod";
import type { AppointmentJson } from "~/lib/appointments";
import { PICK_DATE_AND_TIME } from "~/lib/booking-calendar";
import { mailConfigured } from "../mail/outbox.server";
import { type Failure, failure, type Ok } from "../platform/result.server";
import { type AuditActor, audit } from "../privacy/audit.server";
import { BEFORE_LEAD_TIME, serializeAppointment } from "./appointments.server";
import { appointmentWithRequest, cancelAppointment, rescheduleAppointment } from "./changes.server";
import { INACTIVE_STATUSES } from "./one-per-request.server";
import { SLOT_NOT_OFFERED } from "./scheduling/builtin.server";
import { SLOT_TAKEN } from "./scheduling/types";

/**
 * An admin cancels or moves a built-in booking (its card on Termine, or the API): the same
 * functions as the visitor's manage link (changes.server.ts) — the visitor gets the cancellation
 * or the updated invite (next SEQUENCE) exactly as if they had done it themselves, quarantined
 * requests excepted —, and each change is audited (the booking's id and times, no lead data).
 */
/** `mailed`: whether the visitor hears of it (SMTP, a request, not quarantined). */
type Changed = Ok<{ value: AppointmentJson; mailed: boolean }> | Failure;

/** Whether a change of booking `id` by an admin reaches its visitor by mail. */
export function visitorMailed(id: number): boolean {
  const found = appointmentWithRequest(id);
  // Without SMTP the mail only waits in the outbox: no toast may say the visitor got it.
  return mailConfigured() && found.ok && Boolean(found.request && !found.request.quarantinedAt);
}

export const PICK_A_TIME = "Bitte wählen Sie Datum und Uhrzeit aus.";

/** The move's input, on the page (`startTime` radio) and in the API body alike. */
export const RescheduleSchema = z.object({
  startTime: z
    .string({ error: PICK_A_TIME })
    .trim()
    .min(1, PICK_A_TIME)
    .refine((v) => !Number.isNaN(Date.parse(v)), PICK_A_TIME),
});

export async function cancelByAdmin(actor: AuditActor, id: number): Promise<Changed> {
  const result = await cancelAppointment(id);
  if (!result.ok) return result;
  audit(actor, "appointment-cancelled", `Termin ${id}`);
  return { ...result, mailed: visitorMailed(id) };
}

/**
 * The move shares the visitor's function, whose failures are worded for visitors ("du"): admins
 * read them in the Sie form (as refreshAppointment does for Cal.com's failures).
 */
const ADMIN_WORDING: Record<string, string> = {
  [SLOT_TAKEN]:
    "Dieser Termin ist bereits vergeben. Bitte wählen Sie eine andere Uhrzeit – die freien Zeiten wurden aktualisiert.",
  [SLOT_NOT_OFFERED]:
    "Dieser Zeitpunkt ist nicht buchbar. Bitte wählen Sie eine angebotene Uhrzeit.",
  [BEFORE_LEAD_TIME]:
    "Dieser Termin liegt vor der Mindestvorlaufzeit. Bitte wählen Sie einen späteren Termin.",
  [PICK_DATE_AND_TIME]: PICK_A_TIME,
  "Das ist bereits dein Termin. Bitte wähle eine andere Uhrzeit.":
    "Der Termin liegt bereits zu dieser Zeit. Bitte wählen Sie eine andere.",
  "Der Termin wurde gerade geändert. Bitte lade die Seite neu.":
    "Der Termin wurde gerade geändert. Bitte laden Sie die Seite neu.",
};

const forAdmins = (result: Failure): Failure => ({
  ...result,
  error: ADMIN_WORDING[result.error] ?? result.error,
});

export async function rescheduleByAdmin(
  actor: AuditActor,
  id: number,
  startTime: string,
): Promise<Changed> {
  const before = appointmentWithRequest(id);
  if (!before.ok) return before;
  const from = before.row.startTime;
  if (from.getTime() === Date.parse(startTime))
    return failure(400, "Der Termin liegt bereits zu dieser Zeit. Bitte wählen Sie eine andere.");
  const result = await rescheduleAppointment(id, startTime);
  if (!result.ok) return forAdmins(result);
  audit(actor, "appointment-moved", `Termin ${id}`, {
    from: from.toISOString(),
    to: result.value.startTime,
  });
  return { ...result, mailed: visitorMailed(id) };
}

/** What the move page needs of a booking; a failure when it cannot be moved (anymore). */
export function movableBooking(
  id: number,
): Ok<{ id: number; start: Date; minutes: number; appointment: AppointmentJson }> | Failure {
  const found = appointmentWithRequest(id);
  if (!found.ok) return found;
  const { row } = found;
  if (row.provider !== "builtin")
    return failure(400, "Cal.com-Termine verschieben Sie bei Cal.com.");
  if (INACTIVE_STATUSES.includes(row.status))
    return failure(409, "Dieser Termin wurde bereits abgesagt.");
  if (row.startTime.getTime() <= Date.now())
    return failure(409, "Dieser Termin liegt in der Vergangenheit.");
  return {
    ok: true,
    id,
    start: row.startTime,
    minutes: row.durationMinutes,
    appointment: serializeAppointment(row, found.request),
  };
}
