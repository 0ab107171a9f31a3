import { inArray } from "drizzle-orm";
import { formatDateTime, formatRequestId, summaryOf } from "~/lib/format";
import type { RequestJson } from "~/lib/request-json";
import { admins } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { queueMail } from "./outbox.server";

/** Recipients of new-request mails: selected admins (current address) + external addresses. */
export function notificationRecipients(): string[] {
  const { emailNotifications } = getConfiguration();
  if (!emailNotifications.enabled) return [];
  const ids = emailNotifications.adminEmails.map((a) => a.id);
  const current = ids.length
    ? db()
        .select({ id: admins.id, email: admins.email, isActive: admins.isActive })
        .from(admins)
        .where(inArray(admins.id, ids))
        .all()
    : [];
  const adminAddresses = current.filter((a) => a.isActive).map((a) => a.email);
  const all = [...adminAddresses, ...emailNotifications.externalEmails]
    .map((e) => e.trim())
    .filter(Boolean);
  const seen = new Set<string>();
  return all.filter((e) => {
    const key = e.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Queues the German notification mail about a new request (only when notifications are on). */
export function notifyNewRequest(request: RequestJson) {
  const to = notificationRecipients();
  if (!to.length) return null;
  const url = `${env().APP_URL}/admin/requests?requestId=${request.id}`;
  const summary = summaryOf(request) || "(keine Projektbeschreibung)";
  const extras = [
    request.attachments.length ? `${request.attachments.length} Anhang/Anhänge` : null,
    request.audioPath ? "Sprachnachricht" : null,
  ].filter(Boolean);
  return queueMail({
    to,
    subject: `Neue Anfrage #${formatRequestId(request.id)} von ${request.name}`,
    kind: "new-request",
    requestId: request.id,
    content: {
      greeting: "Hallo,",
      paragraphs: [
        `es ist eine neue Anfrage über die Landingpage eingegangen (${formatDateTime(request.createdAt)}).`,
        `Zusammenfassung: ${summary}`,
        ...(extras.length ? [`Mitgeschickt: ${extras.join(", ")}.`] : []),
      ],
      facts: [
        ["Name", request.name],
        ["E-Mail", request.email],
        ["Telefon", request.phone],
        ["Unternehmen", request.companyDescription],
        ...(request.affiliateCode
          ? ([["Affiliate-Code", request.affiliateCode]] as [string, string][])
          : []),
      ],
      action: { label: "Anfrage öffnen", url },
    },
  });
}
