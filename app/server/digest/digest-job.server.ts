import { and, asc, eq, notExists } from "drizzle-orm";
import { addDays, berlinTime, berlinToday, weekday } from "~/lib/booking-calendar";
import { type DigestJson, digestSubject } from "~/lib/digest";
import { isAbsentOn } from "~/lib/work-settings";
import { admins, digestRuns } from "~db/schema";
import { mailConfigured, queueMail } from "../mail/outbox.server";
import type { MailContent } from "../mail/render";
import { db, transaction } from "../platform/db.server";
import { env } from "../platform/env.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { type DigestAdmin, digestFor } from "./digest.server";

/**
 * The morning digest as a durable job (ADR 352): Monday to Friday from 07:30 Europe/Berlin, each
 * active admin who has not turned it off (and is not absent today) gets one mail a day. Each
 * admin's mail is queued in the same immediate transaction that writes `digest_runs (admin, day)`,
 * so a restart, a second tick or a second process sends nobody a second one, and a crash halfway
 * through the admins leaves the rest to the next tick after the restart. Without SMTP nothing is
 * queued: the dashboard's "Heute" card shows the same list.
 */

export const DIGEST_HOUR = 7;
export const DIGEST_MINUTE = 30;

/** Whether `now` is on a Berlin working day (Mon–Fri) at or after 07:30. */
export function digestDue(now: Date): boolean {
  const day = berlinToday(now);
  const w = weekday(day);
  return w >= 1 && w <= 5 && now >= berlinTime(day, DIGEST_HOUR, DIGEST_MINUTE);
}

/** The mail of one digest (signed like every mail by the common renderer). */
export function digestMail(admin: DigestAdmin, digest: DigestJson): MailContent {
  const base = env().APP_URL;
  const paragraphs = digest.sections.map((section) => {
    const lines = [
      `${section.title}:`,
      ...(section.summary ? [section.summary] : []),
      ...section.items.map(
        (item) =>
          `• ${item.label} – ${item.detail}${item.badge ? ` (${item.badge})` : ""}\n  ${base}${item.href}`,
      ),
      ...(section.items.length && section.more > 0 ? [`… und ${section.more} weitere`] : []),
      ...(section.link ? [`${section.link.label}: ${base}${section.link.href}`] : []),
    ];
    return lines.join("\n");
  });
  return {
    greeting: `Guten Morgen, ${admin.username},`,
    paragraphs: [
      "hier ist Ihre Übersicht für heute:",
      ...paragraphs,
      `Diese Übersicht kommt werktags um 7:30 Uhr. Abbestellen können Sie sie in den Account-Einstellungen: ${base}/admin/account#morgenuebersicht`,
    ],
    action: { label: "Meine Aufgaben öffnen", url: `${base}/admin/aufgaben` },
  };
}

/** The admins whose digest for `day` is still owed: active, digest on, no run that day. */
function owedAdmins(day: string) {
  return db()
    .select({
      id: admins.id,
      username: admins.username,
      email: admins.email,
      absentFrom: admins.absentFrom,
      absentUntil: admins.absentUntil,
    })
    .from(admins)
    .where(
      and(
        eq(admins.isActive, true),
        eq(admins.morningDigest, true),
        notExists(
          db()
            .select({ one: digestRuns.adminId })
            .from(digestRuns)
            .where(and(eq(digestRuns.adminId, admins.id), eq(digestRuns.day, day))),
        ),
      ),
    )
    .orderBy(asc(admins.id))
    .all();
}

export type DigestRun = { queued: number; empty: number; failed: number };

/**
 * One tick: when due and SMTP is set, each owed admin's digest in its own transaction (claim +
 * mail, or claim "empty" when nothing is due). An admin whose digest fails is logged (no personal
 * data) and tried again at the next tick; the others still get theirs.
 */
export function runMorningDigest(now = new Date()): DigestRun {
  const run: DigestRun = { queued: 0, empty: 0, failed: 0 };
  if (!mailConfigured() || !digestDue(now)) return run;
  const day = berlinToday(now);
  for (const admin of owedAdmins(day)) {
    if (isAbsentOn(admin, day)) continue;
    try {
      const outcome = transaction((tx) => {
        const claimed = tx
          .select({ day: digestRuns.day })
          .from(digestRuns)
          .where(and(eq(digestRuns.adminId, admin.id), eq(digestRuns.day, day)))
          .get();
        if (claimed) return null;
        const digest = digestFor(admin, now);
        const mail = digest.sections.length
          ? queueMail({
              to: admin.email,
              subject: digestSubject(digest),
              kind: "morning-digest",
              content: digestMail(admin, digest),
            })
          : null;
        tx.insert(digestRuns)
          .values({
            adminId: admin.id,
            day,
            outcome: mail ? "queued" : "empty",
            mailId: mail?.id ?? null,
            at: now,
          })
          .run();
        return mail ? "queued" : "empty";
      });
      if (outcome) run[outcome] += 1;
    } catch (error) {
      run.failed += 1;
      console.warn(
        `Morgenübersicht für Admin #${admin.id} fehlgeschlagen:`,
        error instanceof Error ? error.message : error,
      );
    }
  }
  return run;
}

/** The next Monday–Friday 07:30 Europe/Berlin strictly after `now` (DST included). */
export function nextDigestTime(now: Date): Date {
  let day = berlinToday(now);
  for (let i = 0; i < 8; i++, day = addDays(day, 1)) {
    const w = weekday(day);
    const at = berlinTime(day, DIGEST_HOUR, DIGEST_MINUTE);
    if (w >= 1 && w <= 5 && at > now) return at;
  }
  throw new Error("no working day within a week");
}

let timer: ReturnType<typeof setTimeout> | undefined;
/**
 * Background task: one tick at start (a restart after 07:30 sends what is still owed that day),
 * then one at each working day's 07:30. Nothing polls in between, so an admin added during the
 * day gets a first digest the next working morning.
 */
export const morningDigestTask = {
  start() {
    const tick = () => {
      try {
        runMorningDigest();
      } catch (error) {
        console.warn(
          "Morgenübersicht fehlgeschlagen:",
          error instanceof Error ? error.message : error,
        );
      }
      const now = new Date();
      timer = setTimeout(tick, nextDigestTime(now).getTime() - now.getTime());
      timer.unref();
    };
    tick();
  },
  stop() {
    if (timer) clearTimeout(timer);
    timer = undefined;
  },
};

registerTestHooks({ runMorningDigest: (now?: Date) => runMorningDigest(now) });
