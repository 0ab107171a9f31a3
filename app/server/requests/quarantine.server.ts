import { and, eq, isNotNull, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { AdminRequestJson, RequestJson } from "~/lib/request-json";
import { requests } from "~db/schema";
import { SLOT_GONE } from "../appointments/held-bookings.server";
import { releaseHeldBookings, settleHeldBookings } from "../appointments/quarantine-release.server";
import { getConfiguration } from "../configuration/configuration.server";
import { mailConfigured } from "../mail/outbox.server";
import { promiseColumns } from "../pipeline/promises.server";
import { db } from "../platform/db.server";
import type { Failure } from "../platform/result.server";
import { type AuditActor, audit } from "../privacy/audit.server";
import { adminExtrasOf, extrasOr } from "./admin-extras.server";
import { countQuarantinedRequests } from "./counts.server";
import { laterUpdatedAt, NOT_FOUND, requestTarget } from "./manage.server";
import { runNewRequestFlow } from "./new-request-flow.server";
import { inIds, loadRequestJson } from "./serialize.server";
import { ALL_WORK_ITEMS, type WorkItemsVisible, workItemsOf } from "./work-items.server";

/**
 * The admin side of the spam quarantine (ADR 252): a quarantined request (requests.quarantined_at
 * set at submission) is left out of every default view, shown under "Prüfen", released once or
 * erased (by an admin, or automatically after `spam.quarantineDays`).
 */

/** Default of `spam.quarantineDays` while the configuration has no `spam` section. */
export const DEFAULT_QUARANTINE_DAYS = 30;

/** Days a quarantined request is kept before the retention job erases it. */
export function quarantineDays(): number {
  const spam = (getConfiguration() as { spam?: { quarantineDays?: unknown } }).spam;
  const days = Number(spam?.quarantineDays);
  return Number.isInteger(days) && days > 0 ? days : DEFAULT_QUARANTINE_DAYS;
}

/**
 * `id NOT IN (the quarantined ids)`: the quarantined ids come from the partial index
 * requests_quarantined_idx (a covering scan of a small index, kept as a bloom filter), so a list
 * or count over a covering index stays on it — no request row is read to leave them out.
 */
export const notQuarantined = (id: SQLWrapper = requests.id): SQL =>
  sql`${id} NOT IN (SELECT id FROM ${requests} WHERE ${requests.quarantinedAt} IS NOT NULL)`;

/** The quarantined requests (the "Prüfen" view); answered from the partial index. */
export const isQuarantined: SQL = sql`${requests.quarantinedAt} IS NOT NULL`;

/** Number of requests waiting in the quarantine ("Prüfen (n)"): a trigger-kept count (ADR 275). */
export const countQuarantined = (): number => countQuarantinedRequests();

/** Ids among `ids` that are quarantined. */
export function quarantinedAmong(ids: number[]): Set<number> {
  if (!ids.length) return new Set();
  const rows = db()
    .select({ id: requests.id })
    .from(requests)
    .where(and(isNotNull(requests.quarantinedAt), inIds(requests.id, ids)))
    .all();
  return new Set(rows.map((r) => r.id));
}

/**
 * The admin request JSON: the spec's shape plus `quarantined`, the voice transcript and the
 * messages (admin-extras.server.ts). Only admin answers go through here; the public 201 body, the
 * visitor's pages, webhooks and CSV use the plain RequestJson.
 */
export function asAdminJson(
  items: RequestJson[],
  visible: WorkItemsVisible = ALL_WORK_ITEMS,
): AdminRequestJson[] {
  const ids = items.map((r) => r.id);
  const held = quarantinedAmong(ids);
  const extras = adminExtrasOf(ids);
  const work = workItemsOf(ids, visible);
  return items.map((r) => ({
    ...r,
    quarantined: held.has(r.id),
    ...extrasOr(extras.get(r.id)),
    ...work(r.id),
  }));
}

/** One request as admins see it; an API token sees notes and follow-ups by its scopes (ADR 350). */
export const adminJsonOf = (
  item: RequestJson,
  visible: WorkItemsVisible = ALL_WORK_ITEMS,
): AdminRequestJson => asAdminJson([item], visible)[0];

/** One request as admins see it (transcript, messages, notes, follow-up), or null when it does not exist. */
export function adminJsonById(id: number): AdminRequestJson | null {
  const found = loadRequestJson(id);
  return found ? adminJsonOf(found) : null;
}

/** `bookingGone`: a booking made while held found its slot taken (ADR 355). */
export type Release = { ok: true; released: boolean; request: RequestJson; bookingGone?: boolean };

/**
 * Releases a quarantined request: one conditional UPDATE (… WHERE quarantined_at IS NOT NULL
 * RETURNING) decides who releases it, so two parallel releases run the new-request flow once —
 * notification mail, `request.created` webhook, receipt —, the AI summary job picks it up on its
 * next round, and the booking made meanwhile gets its mails (or is forwarded to Cal.com).
 * Releasing a request that is not (or no longer) quarantined changes nothing.
 */
export async function releaseRequest(
  id: number,
  actor: AuditActor = "System",
): Promise<Release | Failure> {
  const now = new Date();
  const released = db()
    .update(requests)
    // summaryAttempts: a fresh start for the summary job, whatever happened before. The promises'
    // due times count from the release (ADR 346).
    .set({
      quarantinedAt: null,
      updatedAt: laterUpdatedAt(now.getTime()),
      summaryAttempts: 0,
      ...promiseColumns(now),
    })
    .where(and(eq(requests.id, id), isNotNull(requests.quarantinedAt)))
    .returning({ id: requests.id })
    .get();
  const request = loadRequestJson(id);
  if (!request) return NOT_FOUND;
  if (!released) return { ok: true, released: false, request };
  audit(actor, "release", requestTarget(id));
  // The held bookings are checked again first: the release mail (the receipt) offers a new
  // booking when the chosen slot was taken meanwhile (ADR 355).
  const settled = await settleHeldBookings(id).catch((error) => {
    console.warn(
      "Termin der freigegebenen Anfrage nicht geprüft:",
      error instanceof Error ? error.message : error,
    );
    return { gone: false };
  });
  await runNewRequestFlow(request, { bookingGone: settled.gone });
  await releaseHeldBookings(id).catch((error) =>
    console.warn(
      "Termin der freigegebenen Anfrage nicht nachgeholt:",
      error instanceof Error ? error.message : error,
    ),
  );
  return { ok: true, released: true, request, bookingGone: settled.gone };
}

/**
 * The toast after a release (page): what happens now, honestly — without a mail server the
 * notification and the receipt wait in the outbox (ADR 327).
 */
export const releaseMessage = (r: Release) =>
  !r.released
    ? "Die Anfrage war bereits freigegeben."
    : r.bookingGone
      ? `${SLOT_GONE_RELEASE} ${releaseMailMessage()}`
      : releaseMailMessage();

/** The toast's word on a held booking whose slot was taken before the release (ADR 355). */
export const SLOT_GONE_RELEASE = `${SLOT_GONE}: Der gebuchte Termin war inzwischen vergeben. Die Eingangsbestätigung bietet der Kundin oder dem Kunden einen neuen Termin an.`;

const releaseMailMessage = () =>
  mailConfigured()
    ? "Anfrage freigegeben. Benachrichtigung, Webhooks und Eingangsbestätigung werden jetzt verschickt."
    : "Anfrage freigegeben. Webhooks werden jetzt gesendet. Benachrichtigung und Eingangsbestätigung liegen im Postausgang, bis ein Mailserver (SMTP_URL) eingerichtet ist – die Kundin oder der Kunde erfährt bis dahin nichts.";
