import { data } from "react-router";
import { formatDateTime } from "~/lib/format";
import {
  cancelByAdmin,
  PICK_A_TIME,
  RescheduleSchema,
  rescheduleByAdmin,
} from "~/server/appointments/admin-changes.server";
import { refreshAppointment } from "~/server/appointments/appointments.server";
import { handleVideoLinkForm } from "~/server/appointments/video-link-form.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { failureToast } from "~/server/platform/result.server";
import { adminActor } from "~/server/privacy/audit.server";

/** The card's anchor on Termine: a form result lands on its card (no JS: the browser scrolls). */
export const cardAnchor = (id: number) => `termin-${id}`;

/** The intents of an appointment card's forms (Termine and a request's full-screen view). */
export const CARD_INTENTS = ["video-link", "cancel", "refresh", "calendar-move"] as const;
export const isCardIntent = (intent: unknown) =>
  (CARD_INTENTS as readonly unknown[]).includes(intent);

/**
 * The card forms (no JS needed) on Termine and in a request's full-screen view: video link,
 * cancel and "Aktualisieren" (refresh; also a post without intent, the card's older form).
 */
export async function handleCardForm(
  adminId: number,
  id: number,
  form: FormData,
  back: string,
): Promise<Response> {
  const intent = form.get("intent");
  if (intent === "video-link") return handleVideoLinkForm(id, form, back);
  if (intent === "calendar-move") return moveToCalendarTime(adminId, id, form, back);
  if (intent !== "cancel") return refreshCard(id, back);
  const result = await cancelByAdmin(adminActor(adminId), id);
  const to = `${back}#${cardAnchor(id)}`;
  if (!result.ok) return failureToast(to, result);
  return redirectWithToast(to, {
    type: "success",
    message: result.mailed
      ? "Termin abgesagt – der Kunde erhält die Absage per E-Mail."
      : "Termin abgesagt.",
  });
}

/** "Aktualisieren": the same call and the same messages as POST /api/admin/appointments/{id}/refresh. */
async function refreshCard(id: number, back: string) {
  const result = await refreshAppointment(id);
  if (!result.ok) return failureToast(back, result);
  return redirectWithToast(back, { type: "success", message: "Termin aktualisiert." });
}

/**
 * The move page's form (`startTime` from the slot choice): success leads back to the list the
 * admin came from, onto the card; a refusal stays on the page with its message.
 */
export async function handleMoveForm(adminId: number, id: number, form: FormData, back: string) {
  const parsed = RescheduleSchema.safeParse({ startTime: form.get("startTime") ?? undefined });
  if (!parsed.success)
    return data({ error: parsed.error.issues[0]?.message ?? PICK_A_TIME }, { status: 400 });
  const result = await rescheduleByAdmin(adminActor(adminId), id, parsed.data.startTime);
  if (!result.ok) return data({ error: result.error }, { status: result.status });
  const when = `${formatDateTime(result.value.startTime)} Uhr`;
  return redirectWithToast(`${back}#${cardAnchor(id)}`, {
    type: "success",
    message: result.mailed
      ? `Termin auf ${when} verschoben – der Kunde erhält die neue Einladung per E-Mail.`
      : `Termin auf ${when} verschoben.`,
  });
}

/**
 * "Auf … verschieben" of a demo event moved in the calendar (ADR 336): one click moves the
 * booking properly to the calendar's time (the visitor gets the updated invite as after any
 * move); a time that is not a free slot is refused with its message on the card.
 */
async function moveToCalendarTime(adminId: number, id: number, form: FormData, back: string) {
  const to = `${back}#${cardAnchor(id)}`;
  const parsed = RescheduleSchema.safeParse({ startTime: form.get("startTime") ?? undefined });
  if (!parsed.success)
    return failureToast(to, {
      ok: false,
      status: 400,
      error: parsed.error.issues[0]?.message ?? PICK_A_TIME,
    });
  const result = await rescheduleByAdmin(adminActor(adminId), id, parsed.data.startTime);
  if (!result.ok) return failureToast(to, result);
  const when = `${formatDateTime(result.value.startTime)} Uhr`;
  return redirectWithToast(to, {
    type: "success",
    message: result.mailed
      ? `Termin auf ${when} verschoben – der Kunde erhält die neue Einladung per E-Mail.`
      : `Termin auf ${when} verschoben.`,
  });
}
