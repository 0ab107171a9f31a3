import { and, eq, inArray, sql } from "drizzle-orm";
import { formatRequestId } from "~/lib/format";
import { admins, requests } from "~db/schema";
import { queueMail } from "../mail/outbox.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";

export type MentionedAdmin = { id: number; username: string; email: string };

/**
 * The active admins these names mention (case-insensitive, each once) and the names that are no
 * active admin (an unknown or a deactivated account: the note is refused, nobody is told).
 */
export function resolveMentions(names: string[]): { found: MentionedAdmin[]; unknown: string[] } {
  if (!names.length) return { found: [], unknown: [] };
  const keys = names.map((n) => n.toLowerCase());
  const rows = db()
    .select({ id: admins.id, username: admins.username, email: admins.email })
    .from(admins)
    .where(and(eq(admins.isActive, true), inArray(sql`lower(${admins.username})`, keys)))
    .all();
  const byKey = new Map(rows.map((r) => [r.username.toLowerCase(), r]));
  const found: MentionedAdmin[] = [];
  const unknown: string[] = [];
  for (const name of names) {
    const admin = byKey.get(name.toLowerCase());
    if (admin) found.push(admin);
    else unknown.push(name);
  }
  return { found, unknown };
}

/**
 * Mails each mentioned admin (never the author) who mentioned them and a link to the request's
 * notes — not the note's text (ADR 350). Erased with the request (requestId). Returns the
 * usernames mailed.
 */
export function notifyMentions(
  mentioned: MentionedAdmin[],
  author: { id: number; username: string },
  requestId: number,
): string[] {
  const others = mentioned.filter((a) => a.id !== author.id);
  if (!others.length) return [];
  const lead = db()
    .select({ name: requests.name })
    .from(requests)
    .where(eq(requests.id, requestId))
    .get();
  const number = formatRequestId(requestId);
  for (const admin of others) {
    queueMail({
      to: admin.email,
      subject: `${author.username} hat Sie in einer Notiz zu Anfrage #${number} erwähnt`,
      kind: "note-mention",
      requestId,
      content: {
        greeting: `Hallo ${admin.username},`,
        paragraphs: [
          `${author.username} hat Sie in einer internen Notiz zu Anfrage #${number}${lead?.name ? ` (${lead.name})` : ""} erwähnt.`,
          "Die Notiz steht im Abschnitt „Notizen“ der Anfrage.",
        ],
        action: {
          label: "Notiz lesen",
          url: `${env().APP_URL}/admin/requests?requestId=${requestId}#notizen`,
        },
      },
    });
  }
  return others.map((a) => a.username);
}
