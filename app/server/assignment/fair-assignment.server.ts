import { and, eq, inArray } from "drizzle-orm";
import { berlinToday } from "~/lib/booking-calendar";
import { isAbsentOn } from "~/lib/work-settings";
import { admins, appointments, assignmentRotation, requestAssignees, requests } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { db, transaction } from "../platform/db.server";
import { audit } from "../privacy/audit.server";
import { assignRequest, laterUpdatedAt, requestTarget } from "../requests/manage.server";

/**
 * Who a request is assigned to without a click (ADR 353), in one module:
 * - a released request (a normal submission, or one an admin lets out of the quarantine) goes to
 *   the next admin of the opted-in list in turn, skipping inactive admins and those absent today
 *   — when "Faire Verteilung" is on and nobody is assigned yet;
 * - a booked demo *adds* the admin who takes it as an assignee, never replacing one (ADR 338).
 */

export type TurnResult = { adminId: number; username: string } | null;

/**
 * Assigns a released request to the next admin in turn. The pointer (the admin who got the last
 * one) is read and moved in the same immediate transaction that writes the assignee, so parallel
 * submissions — in one process or several — take consecutive turns: none is skipped, none twice.
 */
export function assignNextInTurn(requestId: number, now = new Date()): TurnResult {
  const { roundRobin, adminIds } = getConfiguration().assignment;
  if (!roundRobin || !adminIds.length) return null;
  const today = berlinToday(now);
  const chosen = transaction((tx) => {
    const taken = tx
      .select({ id: requestAssignees.adminId })
      .from(requestAssignees)
      .where(eq(requestAssignees.requestId, requestId))
      .get();
    if (taken) return null;
    const exists = tx
      .select({ id: requests.id })
      .from(requests)
      .where(eq(requests.id, requestId))
      .get();
    if (!exists) return null;
    const rows = tx
      .select({
        id: admins.id,
        username: admins.username,
        absentFrom: admins.absentFrom,
        absentUntil: admins.absentUntil,
      })
      .from(admins)
      .where(and(inArray(admins.id, adminIds), eq(admins.isActive, true)))
      .all();
    const eligible = new Map(
      rows.filter((a) => !isAbsentOn(a, today)).map((a) => [a.id, a.username]),
    );
    if (!eligible.size) return null;
    const pointer = tx.select().from(assignmentRotation).where(eq(assignmentRotation.id, 1)).get();
    const next = nextInTurn(adminIds, pointer?.lastAdminId ?? null, (id) => eligible.has(id));
    if (next === null) return null;
    tx.insert(requestAssignees).values({ requestId, adminId: next }).run();
    tx.update(requests)
      .set({ updatedAt: laterUpdatedAt() })
      .where(eq(requests.id, requestId))
      .run();
    tx.insert(assignmentRotation)
      .values({ id: 1, lastAdminId: next, assigned: 1 })
      .onConflictDoUpdate({
        target: assignmentRotation.id,
        set: { lastAdminId: next, assigned: (pointer?.assigned ?? 0) + 1 },
      })
      .run();
    return { adminId: next, username: eligible.get(next) as string };
  });
  if (chosen)
    audit("System", "assign-round-robin", requestTarget(requestId), { admin: chosen.username });
  return chosen;
}

/**
 * The admin after `last` in the list's order who is eligible (wrapping around); `last` missing
 * from the list (removed since) starts at the top. Null when nobody is.
 */
export function nextInTurn(
  order: readonly number[],
  last: number | null,
  eligible: (id: number) => boolean,
): number | null {
  const start = last === null ? -1 : order.indexOf(last);
  for (let step = 1; step <= order.length; step++) {
    const id = order[(start + step) % order.length];
    if (eligible(id)) return id;
  }
  return null;
}

/**
 * The admin who takes a demo (ADR 338) becomes an assignee of its request — added beside whoever
 * is assigned, never replacing one — through the request list's one assignment rule.
 */
export function addDemoHost(appointmentId: number) {
  const row = db()
    .select({ requestId: appointments.requestId, hostAdminId: appointments.hostAdminId })
    .from(appointments)
    .where(eq(appointments.id, appointmentId))
    .get();
  if (!row?.requestId || !row.hostAdminId) return;
  assignRequest(row.requestId, "add", row.hostAdminId, "System");
}
