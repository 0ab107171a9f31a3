import { and, asc, isNull, sql } from "drizzle-orm";
import { berlinDayOf, dayBoundsUtc } from "~/lib/booking-calendar";
import { DIGEST_SECTION_ITEMS, type DigestSection } from "~/lib/digest";
import { formatRequestId } from "~/lib/format";
import { promiseText } from "~/lib/promises";
import { requestAssignees, requests } from "~db/schema";
import { db } from "../platform/db.server";
import { openPromiseCondition } from "./promises.server";

/**
 * The morning digest's first section (ADRs 346, 352): the promises of the admin's requests (those
 * assigned to them) that are due by the end of today or overdue — first contact and trial version,
 * open, the request neither closed ("Done"), archived nor held. Earliest due first.
 */

export function promisesSection(admin: { id: number }, now: Date): DigestSection | null {
  const until = dayBoundsUtc(berlinDayOf(now)).end.getTime() + 1;
  // Driven by the open promises' partial indexes (not by the admin's assignments, which the
  // planner might scan whole), then kept to the admin's requests.
  const where = and(
    openPromiseCondition(null, until),
    isNull(requests.quarantinedAt),
    sql`EXISTS (SELECT 1 FROM ${requestAssignees} WHERE ${requestAssignees.requestId} = ${requests.id} AND ${requestAssignees.adminId} = ${admin.id})`,
  );
  const rows = db()
    .select({
      id: requests.id,
      name: requests.name,
      contactDueAt: requests.contactDueAt,
      contactDoneAt: requests.contactDoneAt,
      trialDueAt: requests.trialDueAt,
      trialDoneAt: requests.trialDoneAt,
    })
    .from(requests)
    .where(where)
    .orderBy(
      // The earliest open promise first (one kept already does not count).
      asc(
        sql`min(coalesce(CASE WHEN ${requests.contactDoneAt} IS NULL THEN ${requests.contactDueAt} END, 9e15), coalesce(CASE WHEN ${requests.trialDoneAt} IS NULL THEN ${requests.trialDueAt} END, 9e15))`,
      ),
    )
    .all();
  if (!rows.length) return null;
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const items = rows.slice(0, DIGEST_SECTION_ITEMS).map((r) => {
    const parts: string[] = [];
    const contact = { dueAt: iso(r.contactDueAt), doneAt: iso(r.contactDoneAt) };
    const trial = { dueAt: iso(r.trialDueAt), doneAt: iso(r.trialDoneAt) };
    if (!r.contactDoneAt && r.contactDueAt && r.contactDueAt.getTime() < until)
      parts.push(`Erstkontakt ${promiseText(contact, now, true)}`);
    if (!r.trialDoneAt && r.trialDueAt && r.trialDueAt.getTime() < until)
      parts.push(`Testversion ${promiseText(trial, now, true)}`);
    return {
      requestId: r.id,
      label: `#${formatRequestId(r.id)} ${r.name}`,
      detail: parts.join(" · "),
      href: `/admin/requests?requestId=${r.id}`,
    };
  });
  return {
    key: "promises",
    title: "Ihre Zusagen",
    items,
    more: rows.length - items.length,
    link: { label: "Alle überfälligen Zusagen", href: "/admin/requests?promise=overdue" },
  };
}
