import { and, eq, isNull, or, sql } from "drizzle-orm";
import {
  appointments,
  attachments,
  followUps,
  idempotencyKeys,
  mailOutbox,
  requestMessages,
  requestNotes,
  requests,
  webhookDeliveries,
} from "~db/schema";
import { HELD_STATUS } from "../appointments/appointments.server";
import { scheduling } from "../appointments/scheduling/index.server";
import { db, transaction } from "../platform/db.server";
import { type Failure, failure } from "../platform/result.server";
import { typedColumns } from "../requests/contact-columns.server";
import { deleteStoredFiles } from "../uploads/store.server";

/** The name an anonymised request keeps (its e-mail is empty). */
export const ANONYMIZED = "Anonymisiert";

export type ErasureResult =
  | { ok: true; files: number; mails: number; appointments: number; cancelled: number }
  | Failure;

/**
 * Erases a request and every trace of its personal data: the row (with the search index entry,
 * voice transcript, messages to the lead, notes, follow-ups, assignments and attachment rows by cascade), its appointments (cancelled at Cal.com when booked
 * there), outbox mails about it, idempotency records of its creation, its files and recording.
 * The database runs with secure_delete and FTS5 secure-delete; the WAL is truncated afterwards, so
 * nothing of it stays in the data directory. Used by the admin page, the API and the visitor.
 */
export async function eraseRequest(
  id: number,
  /** "anonymize" keeps the row with status, dates, affiliate code, utm source/medium/campaign (statistics) and nothing personal. */
  mode: "delete" | "anonymize" = "delete",
): Promise<ErasureResult> {
  const row = db().select().from(requests).where(eq(requests.id, id)).get();
  if (!row) return failure(404, "Anfrage nicht gefunden.");
  const files = db()
    .select({ key: attachments.filename })
    .from(attachments)
    .where(eq(attachments.requestId, id))
    .all()
    .map((f) => f.key);
  if (row.audioKey) files.push(row.audioKey);
  const booked = db().select().from(appointments).where(eq(appointments.requestId, id)).all();

  const cancelled = await cancelAtProvider(booked);

  const counts = transaction((tx) => {
    const mails = tx
      .delete(mailOutbox)
      .where(
        or(
          eq(mailOutbox.requestId, id),
          // Mails queued before the column existed: recognise them by the person's contact data.
          and(isNull(mailOutbox.requestId), mentions(row.email, row.phone)),
        ),
      )
      .run().changes;
    tx.delete(webhookDeliveries).where(eq(webhookDeliveries.requestId, id)).run();
    const removedAppointments = tx
      .delete(appointments)
      .where(eq(appointments.requestId, id))
      .run().changes;
    tx.delete(idempotencyKeys)
      .where(
        sql`json_extract(${idempotencyKeys.headers}, '$.location') IN (${`/api/requests/${id}`}, ${`/api/admin/requests/${id}`})`,
      )
      .run();
    if (mode === "delete") tx.delete(requests).where(eq(requests.id, id)).run();
    else {
      tx.delete(attachments).where(eq(attachments.requestId, id)).run();
      // The thread with the lead, the notes and follow-ups (deleted with the row by cascade
      // otherwise): their texts may name the person.
      tx.delete(requestMessages).where(eq(requestMessages.requestId, id)).run();
      tx.delete(requestNotes).where(eq(requestNotes.requestId, id)).run();
      tx.delete(followUps).where(eq(followUps.requestId, id)).run();
      tx.update(requests)
        .set({
          // Every typed field of the contact form is emptied (ADR 312), the name says what happened.
          ...typedColumns({ name: ANONYMIZED }),
          summary: null,
          preparationData: {},
          audioKey: null,
          audioType: null,
          // The transcript leaves the search index with it (the FTS5 update trigger).
          voiceTranscript: null,
          voiceTranscriptStatus: null,
          voiceTranscriptDueAt: null,
          visitorSecretHash: null,
          // Source, medium and campaign stay (statistics); a referrer or landing URL may name someone.
          attributionReferrer: null,
          attributionLandingPath: null,
          emailKey: null,
          phoneKey: null,
        })
        .where(eq(requests.id, id))
        .run();
    }
    return { mails, appointments: removedAppointments };
  });

  await deleteStoredFiles(files);
  checkpoint();
  return { ok: true, files: files.length, cancelled, ...counts };
}

function mentions(email: string, phone: string) {
  const needles = [email.toLowerCase(), phone.trim()].filter((n) => n.length >= 6);
  if (!needles.length) return sql`0`;
  return or(
    ...needles.flatMap((needle) => [
      sql`instr(lower(${mailOutbox.to}), ${needle}) > 0`,
      sql`instr(lower(${mailOutbox.text}), ${needle}) > 0`,
      sql`instr(lower(${mailOutbox.subject}), ${needle}) > 0`,
    ]),
  );
}

/**
 * Cancels live Cal.com bookings of the request (a HELD one never reached Cal.com, ADR 252: it goes
 * with the row); a failure keeps the erasure going (logged without data).
 */
async function cancelAtProvider(rows: (typeof appointments.$inferSelect)[]): Promise<number> {
  const provider = scheduling();
  let cancelled = 0;
  for (const row of rows) {
    if (row.provider !== "calcom" || provider.name !== "calcom") continue;
    if (["CANCELLED", "DELETED", "REJECTED", HELD_STATUS].includes(row.status.toUpperCase()))
      continue;
    if (row.startTime.getTime() < Date.now()) continue;
    const result = await provider.cancel(row.externalUid);
    if (result.ok) cancelled += 1;
    else
      console.warn(
        `Löschung: Termin ${row.id} konnte bei Cal.com nicht abgesagt werden:`,
        result.error,
      );
  }
  return cancelled;
}

/** Moves the WAL into the database file and truncates it, so deleted pages leave no copy behind. */
export function checkpoint() {
  db().$client.pragma("wal_checkpoint(TRUNCATE)");
}
