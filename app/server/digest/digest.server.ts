import { and, desc, eq, isNull } from "drizzle-orm";
import { berlinToday } from "~/lib/booking-calendar";
import { DIGEST_SECTION_ITEMS, type DigestJson, type DigestSection } from "~/lib/digest";
import { dueLabel, FOLLOW_UP_ANSWER_LABELS, type TaskJson } from "~/lib/follow-ups";
import { formatDate, formatRequestId } from "~/lib/format";
import { requestAssignees, requests } from "~db/schema";
import { tasksOf } from "../follow-ups/follow-ups.server";
import { promisesSection } from "../pipeline/promises-digest.server";
import { db } from "../platform/db.server";
import { countAssigned } from "../requests/counts.server";
import { countQuarantined } from "../requests/quarantine.server";

/**
 * What is due for one admin today (ADR 352): the morning mail and, without SMTP, the dashboard's
 * "Heute" card are this one list. Sections in a fixed order, each only when it has something:
 * the promises of their requests due today and overdue (../pipeline/promises-digest.server.ts),
 * their follow-ups (overdue and today), new leads assigned to them, and the requests held for
 * checking.
 */

export type DigestAdmin = { id: number; username: string };

const requestHref = (id: number) => `/admin/requests?requestId=${id}`;

function taskItem(task: TaskJson, today: string) {
  return {
    requestId: task.requestId,
    label: `#${formatRequestId(task.requestId)} ${task.requestName}`,
    detail: [dueLabel(task.due, today), task.text].filter(Boolean).join(" · "),
    href: requestHref(task.requestId),
    ...(task.answer ? { badge: FOLLOW_UP_ANSWER_LABELS[task.answer] } : {}),
  };
}

/** The admin's follow-ups due today or earlier, oldest day first. */
function followUpSection(admin: DigestAdmin, now: Date): DigestSection | null {
  const tasks = tasksOf(admin.id, now, DIGEST_SECTION_ITEMS);
  const due = [...tasks.buckets.overdue.items, ...tasks.buckets.today.items];
  const total = tasks.buckets.overdue.total + tasks.buckets.today.total;
  if (!total) return null;
  const items = due.slice(0, DIGEST_SECTION_ITEMS).map((t) => taskItem(t, tasks.today));
  return {
    key: "followUps",
    title: "Ihre Wiedervorlagen",
    items,
    more: total - items.length,
    link: { label: "Meine Aufgaben", href: "/admin/aufgaben" },
  };
}

/** Requests still "Neu" that are assigned to the admin (not archived, not held), newest first. */
function newLeadSection(admin: DigestAdmin): DigestSection | null {
  // The total from the counts table (ADR 275): none assigned, no query over the requests.
  const total = countAssigned(admin.id, "New");
  if (!total) return null;
  const where = and(
    eq(requestAssignees.adminId, admin.id),
    eq(requests.status, "New"),
    eq(requests.archived, false),
    isNull(requests.quarantinedAt),
  );
  const rows = db()
    .select({ id: requests.id, name: requests.name, createdAt: requests.createdAt })
    .from(requestAssignees)
    .innerJoin(requests, eq(requests.id, requestAssignees.requestId))
    .where(where)
    .orderBy(desc(requests.createdAt))
    .limit(DIGEST_SECTION_ITEMS)
    .all();
  if (!rows.length) return null;
  return {
    key: "newLeads",
    title: "Neue Anfragen für Sie",
    items: rows.map((r) => ({
      requestId: r.id,
      label: `#${formatRequestId(r.id)} ${r.name}`,
      detail: `eingegangen am ${formatDate(r.createdAt)}`,
      href: requestHref(r.id),
    })),
    more: Math.max(0, total - rows.length),
    link: { label: "Mir zugewiesen", href: "/admin/requests?tab=mine&status=New" },
  };
}

/** The spam quarantine's size (no content of the requests): replaces the daily quarantine mail. */
function heldSection(): DigestSection | null {
  const waiting = countQuarantined();
  if (!waiting) return null;
  return {
    key: "held",
    title: "Zur Prüfung",
    items: [],
    more: waiting,
    summary:
      waiting === 1
        ? "1 Anfrage wartet auf Prüfung (kein gültiger Spam-Schutz oder Sperrliste)."
        : `${waiting} Anfragen warten auf Prüfung (kein gültiger Spam-Schutz oder Sperrliste).`,
    link: { label: "Anfragen prüfen", href: "/admin/requests?tab=quarantine" },
  };
}

/** The digest of one admin for the Berlin day of `now`. */
export function digestFor(admin: DigestAdmin, now = new Date()): DigestJson {
  const sections = [
    promisesSection(admin, now),
    followUpSection(admin, now),
    newLeadSection(admin),
    heldSection(),
  ].filter((s): s is DigestSection => s !== null);
  return { day: berlinToday(now), sections };
}
