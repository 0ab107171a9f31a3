import { eq, sql } from "drizzle-orm";
import { firstNameOf } from "~/lib/first-name";
import { STAGE_IDS } from "~/lib/pipeline";
import { keptInTime } from "~/lib/promises";
import type { RequestJson } from "~/lib/request-json";
import type { RequestMessageJson } from "~/lib/request-message";
import type { TrialInput } from "~/lib/trial";
import { requests } from "~db/schema";
import { bookingEnabled } from "../appointments/booking-settings.server";
import { db } from "../platform/db.server";
import { failure, type Result } from "../platform/result.server";
import { audit } from "../privacy/audit.server";
import { NOT_FOUND } from "../requests/manage.server";
import { sendMessage } from "../requests/messages.server";
import { requestLinkUrl } from "../requests/request-link.server";
import { loadRequestJson, requestsWithAppointment } from "../requests/serialize.server";
import { requestTarget } from "../requests/target.server";
import { emitWebhook } from "../webhooks/deliveries.server";
import { moveForward } from "./auto-moves.server";

/**
 * "Testversion liefern" (ADR 348): the trial's link (and the admin's words) go to the lead as a
 * message of the request's thread — greeting with the cleaned first name, the text, the link, a
 * booking link while no demo is booked; Reply-To, IMAP and the limits as for every message. The
 * trial promise is recorded (kept or late, the first delivery counts), the request moves forward to
 * "Testversion geliefert", `request.trial_delivered` is announced.
 */

export const TRIAL_SUBJECT = "Deine Testversion ist da";
export const TRIAL_KIND = "trial" as const;
export const TRIAL_ARCHIVED =
  "Die Anfrage ist archiviert – stellen Sie sie zuerst wieder her, bevor Sie eine Testversion liefern.";
export const TRIAL_HELD =
  "Die Anfrage wartet auf die Spamprüfung – geben Sie sie zuerst frei, bevor Sie eine Testversion liefern.";
export const TRIAL_ERASED =
  "Die Daten dieser Anfrage wurden gelöscht – es gibt keine Adresse mehr, an die die Testversion gehen könnte.";
const DEFAULT_TEXT = "deine Testversion ist fertig – probier sie gleich aus.";

type Sender = { id: number; username: string };

export type TrialDelivery = Result<{
  message: RequestMessageJson;
  request: RequestJson;
  /** Delivered by the promise's due time (to the second); null without a promise (held before). */
  kept: boolean | null;
}>;

/** Delivers the trial version of request `id` (page and API). */
export async function deliverTrial(
  id: number,
  sender: Sender,
  input: TrialInput,
): Promise<TrialDelivery> {
  const row = db()
    .select({
      name: requests.name,
      email: requests.email,
      archived: requests.archived,
      quarantinedAt: requests.quarantinedAt,
    })
    .from(requests)
    .where(eq(requests.id, id))
    .get();
  if (!row) return NOT_FOUND;
  if (row.archived) return failure(409, TRIAL_ARCHIVED);
  if (row.quarantinedAt) return failure(409, TRIAL_HELD);
  if (!row.email) return failure(409, TRIAL_ERASED);

  const firstName = firstNameOf(row.name);
  const booking =
    bookingEnabled() && requestsWithAppointment([id]).length === 0
      ? requestLinkUrl(id, "termin")
      : null;
  const text = input.message ?? DEFAULT_TEXT;
  const sent = await sendMessage(
    id,
    sender,
    {
      subject: TRIAL_SUBJECT,
      // The thread keeps the admin's words and the link; the booking link's token only goes out
      // in the mail (the outbox masks it once sent).
      body: [
        text,
        `Testversion: ${input.url}`,
        booking ? "Mit Link zur Buchung eines Demo-Termins." : "",
      ]
        .filter(Boolean)
        .join("\n\n"),
    },
    {
      kind: TRIAL_KIND,
      content: {
        greeting: firstName ? `Hallo ${firstName},` : "Hallo,",
        paragraphs: [
          text,
          ...(booking
            ? [
                "Möchtest du sie mit uns gemeinsam ansehen? Dann buch dir einen persönlichen Demo-Termin.",
              ]
            : []),
        ],
        action: { label: "Testversion öffnen", url: input.url },
        ...(booking ? { links: [{ label: "Demo-Termin buchen", url: booking }] } : {}),
      },
      // The first delivery keeps (or misses) the promise; a later one only updates the link.
      within: (tx, at) =>
        tx
          .update(requests)
          .set({
            trialDoneAt: sql`coalesce(${requests.trialDoneAt}, ${at.getTime()})`,
            trialUrl: input.url,
          })
          .where(eq(requests.id, id))
          .run(),
    },
  );
  if (!sent.ok) return sent;
  moveForward(id, STAGE_IDS.trial, "trial");
  const promise = db()
    .select({ due: requests.trialDueAt, done: requests.trialDoneAt })
    .from(requests)
    .where(eq(requests.id, id))
    .get();
  const kept =
    promise?.due && promise.done ? keptInTime(promise.done.getTime(), promise.due.getTime()) : null;
  audit(sender, "trial-delivered", requestTarget(id), {
    message: sent.message.id,
    ...(kept === null ? {} : { eingehalten: kept }),
  });
  const request = loadRequestJson(id);
  if (!request) return NOT_FOUND;
  emitWebhook(
    { event: "request.trial_delivered", data: request },
    `message-${sent.message.id}`,
    id,
  );
  return { ok: true, message: sent.message, request, kept };
}

/** The toast after a delivery. */
export function trialMessage(kept: boolean | null): string {
  if (kept === false) return "Testversion geliefert – nach der versprochenen Zeit.";
  if (kept === true) return "Testversion geliefert – rechtzeitig.";
  return "Testversion geliefert.";
}
