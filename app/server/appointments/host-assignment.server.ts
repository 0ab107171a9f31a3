import { eq } from "drizzle-orm";
import { appointments } from "~db/schema";
import { db } from "../platform/db.server";
import { assignRequest } from "../requests/manage.server";

/**
 * The admin who takes a demo (ADR 338) becomes an assignee of its request — added, never
 * replacing one — through the one assignment rule of the request list (the later "fair
 * assignment" module will be called here instead).
 */
export function assignDemoHost(appointmentId: number) {
  const row = db()
    .select({ requestId: appointments.requestId, hostAdminId: appointments.hostAdminId })
    .from(appointments)
    .where(eq(appointments.id, appointmentId))
    .get();
  if (!row?.requestId || !row.hostAdminId) return;
  assignRequest(row.requestId, "add", row.hostAdminId, "System");
}
