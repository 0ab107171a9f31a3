import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { AttachmentJson, RequestJson } from "~/lib/request-json";
import { appointments, attachments, requestAssignees, requests } from "~db/schema";
import { db } from "../db.server";

type RequestRow = typeof requests.$inferSelect;
type AttachmentRow = typeof attachments.$inferSelect;

export function serializeAttachment(row: AttachmentRow): AttachmentJson {
  return {
    id: row.id,
    filename: row.filename,
    originalName: row.originalName,
    size: row.size,
    uploadedAt: row.uploadedAt.toISOString(),
  };
}

export function serializeRequest(
  row: RequestRow,
  files: AttachmentRow[],
  assignedTo: number[],
): RequestJson {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    companyDescription: row.companyDescription,
    description: row.description,
    summary: row.summary,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    archived: row.archived,
    audioPath: row.audioKey,
    attachments: files.map(serializeAttachment),
    preparationData: row.preparationData ?? {},
    assigned_to: assignedTo,
    affiliateCode: row.affiliateCode,
    attribution: {
      source: row.attributionSource,
      medium: row.attributionMedium,
      campaign: row.attributionCampaign,
      referrer: row.attributionReferrer,
      landingPath: row.attributionLandingPath,
    },
  };
}

/** Loads and serialises the given rows with their attachments and assignees (3 queries). */
export function serializeRequests(rows: RequestRow[]): RequestJson[] {
  if (!rows.length) return [];
  const ids = rows.map((r) => r.id);
  const files = db()
    .select()
    .from(attachments)
    .where(inArray(attachments.requestId, ids))
    .orderBy(asc(attachments.id))
    .all();
  const assignees = db()
    .select()
    .from(requestAssignees)
    .where(inArray(requestAssignees.requestId, ids))
    .orderBy(asc(requestAssignees.assignedAt))
    .all();
  return rows.map((row) =>
    serializeRequest(
      row,
      files.filter((f) => f.requestId === row.id),
      assignees.filter((a) => a.requestId === row.id).map((a) => a.adminId),
    ),
  );
}

/** One request in the spec's shape, or null. */
export function loadRequestJson(id: number): RequestJson | null {
  const row = db().select().from(requests).where(eq(requests.id, id)).get();
  return row ? serializeRequests([row])[0] : null;
}

/** The request whose voice recording is stored under key (for GET /api/audio/{key}). */
export function requestIdForAudio(key: string): number | null {
  const row = db()
    .select({ id: requests.id })
    .from(requests)
    .where(eq(requests.audioKey, key))
    .get();
  return row?.id ?? null;
}

/** Serialised requests by id, in the given order (missing ids skipped). */
export function loadRequestsJson(ids: number[]): RequestJson[] {
  if (!ids.length) return [];
  const rows = db().select().from(requests).where(inArray(requests.id, ids)).all();
  const byId = new Map(serializeRequests(rows).map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is RequestJson => !!r);
}

/** Ids among `ids` that already have a booked (not cancelled) demo appointment. */
export function requestsWithAppointment(ids: number[]): number[] {
  if (!ids.length) return [];
  return db()
    .select({ id: appointments.requestId })
    .from(appointments)
    .where(and(inArray(appointments.requestId, ids), ne(appointments.status, "CANCELLED")))
    .all()
    .map((r) => r.id as number);
}
