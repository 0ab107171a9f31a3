import { eq } from "drizzle-orm";
import { data, redirect } from "react-router";
import { formatDateTime } from "~/lib/format";
import { appointments } from "~db/schema";
import { db } from "../platform/db.server";
import { consumeAll, visitorLimits } from "../platform/rate-limit.server";
import { failure, failurePage } from "../platform/result.server";
import { requestLinkPath } from "../requests/request-link.server";
import { bookingEnabled, videoLinkOf } from "./booking-settings.server";
import { cancelAppointment, rescheduleAppointment } from "./changes.server";
import {
  APPOINTMENT_GONE,
  MANAGE_PATH,
  manageToken,
  verifyManageToken,
} from "./manage-link.server";
import { INACTIVE_STATUSES } from "./one-per-request.server";

/**
 * The visitor's page behind the signed link (`/termin/verwalten?token=…`): what it shows and
 * what its form does. Cancel and reschedule run through the same functions as every other path.
 */
export type ManagedAppointment = {
  title: string;
  start: string;
  end: string;
  when: string;
  cancelled: boolean;
  provider: "builtin" | "calcom";
  /** The video link (ADR 267), while the booking stands. */
  videoUrl: string | null;
  /**
   * Once cancelled: the signed links to the visitor's request (ADR 220), so this browser can book
   * again or open the request without having sent it; null without a request.
   */
  bookAgainPath: string | null;
  requestPath: string | null;
};

/** The appointment a token names; a refusal is thrown as a German 4xx response (never a 500). */
export function managedAppointment(token: string | null) {
  const checked = verifyManageToken(token);
  if (!checked.ok) throw failurePage(checked);
  const row = checked.appointment;
  const cancelled = INACTIVE_STATUSES.includes(row.status);
  const requestId = cancelled ? row.requestId : null;
  const view: ManagedAppointment = {
    title: row.eventTypeName,
    start: row.startTime.toISOString(),
    end: new Date(row.startTime.getTime() + row.durationMinutes * 60_000).toISOString(),
    when: formatDateTime(row.startTime),
    cancelled,
    provider: row.provider,
    videoUrl: cancelled ? null : videoLinkOf(row),
    bookAgainPath: requestId && bookingEnabled() ? requestLinkPath(requestId, "termin") : null,
    requestPath: requestId ? requestLinkPath(requestId) : null,
  };
  return {
    id: row.id,
    sequence: row.sequence,
    minutes: row.durationMinutes,
    start: row.startTime,
    view,
  };
}

const MANAGE_INTENTS = ["cancel", "reschedule"] as const;

/**
 * Applies the form: `intent=cancel`, or `intent=reschedule` with `startTime`. Success redirects to
 * the page under the booking's new link (the old one is outdated now); a failure comes back as
 * `{ error }` with its 4xx status.
 */
export async function applyManageForm(token: string | null, form: FormData, clientIp: string) {
  const { id, sequence } = managedAppointment(token);
  const intent = MANAGE_INTENTS.find((i) => i === form.get("intent"));
  if (!intent) return data({ error: "Unbekannte Aktion." }, { status: 400 });
  // The booking limit, per client (IPv4 address or IPv6 /56, ADR 254) and network (ADR 322),
  // for a move only.
  const limit =
    intent === "reschedule" ? await consumeAll(visitorLimits("booking", clientIp)) : null;
  const result =
    limit && !limit.ok
      ? limit
      : intent === "cancel"
        ? await cancelAppointment(id, sequence)
        : await rescheduleAppointment(id, String(form.get("startTime") ?? ""), sequence);
  if (!result.ok) return data({ error: result.error }, { status: result.status });
  const done = intent === "cancel" ? "abgesagt" : "verschoben";
  // The booking's new revision signs the new link (the one used here is outdated now).
  const row = db().select().from(appointments).where(eq(appointments.id, id)).get();
  if (!row) throw failurePage(failure(404, APPOINTMENT_GONE));
  return redirect(
    `${MANAGE_PATH}?${new URLSearchParams({ token: manageToken(row), erledigt: done })}`,
  );
}
