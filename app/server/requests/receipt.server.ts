import { eq } from "drizzle-orm";
import { visitorGreeting } from "~/lib/first-name";
import { formatRequestId } from "~/lib/format";
import { withinDays } from "~/lib/promises";
import { requests } from "~db/schema";
import { bookingEnabled } from "../appointments/booking-settings.server";
import { addressKey } from "../mail/address-key.server";
import { queueMail } from "../mail/outbox.server";
import { pipeline } from "../pipeline/config.server";
import { db } from "../platform/db.server";
import { receiptLimiter } from "../platform/rate-limit.server";
import { requestLinkUrl } from "./request-link.server";

/**
 * The receipt a visitor gets for an accepted request (ADR 220): the number, the three-day promise,
 * the demo offer and the signed link to the request. It repeats nothing the visitor typed except
 * the cleaned first name, so a spammer cannot send their text to a stranger's address through it.
 */
export const RECEIPT_SUBJECT = "Deine Anfrage ist bei uns eingegangen";
export const RECEIPT_KIND = "request-receipt";
export type ReceiptOutcome = "queued" | "limited" | "none";
/** The receipt at a release whose held booking lost its slot (ADR 355). */
export const SLOT_GONE_PARAGRAPH =
  "Der Demo-Termin, den du dir ausgesucht hattest, ist leider inzwischen vergeben. Über den Link unten suchst du dir einen neuen aus – dort kannst du deine Anfrage auch jederzeit ansehen oder zurückziehen.";
export const SLOT_GONE_ACTION = "Neuen Termin aussuchen";

const trialPromise = () => {
  const { trialDays, trialWorkingDays } = pipeline().promises;
  return withinDays(trialDays, trialWorkingDays);
};

/**
 * The one entry point for the receipt: queues it in the outbox (sent like every mail; without SMTP
 * it waits there, readable in Einstellungen → Postausgang). The submission calls it for every
 * accepted request; a request held back (a quarantine) calls it when it is released. Reserves
 * the address's one receipt per 24 h first — an atomic upsert, so parallel submissions from one
 * address queue exactly one — and gives the reservation back when the mail could not be queued.
 */
export async function sendReceipt(
  requestId: number,
  release: { bookingGone?: boolean } = {},
): Promise<ReceiptOutcome> {
  const row = db()
    .select({ id: requests.id, name: requests.name, email: requests.email })
    .from(requests)
    .where(eq(requests.id, requestId))
    .get();
  // A held booking whose slot was taken before the release (ADR 355): the visitor's booking link.
  const gone = Boolean(release.bookingGone) && bookingEnabled();
  const link = row?.email ? requestLinkUrl(row.id, gone ? "termin" : undefined) : null;
  if (!row || !link) return "none";
  const key = addressKey(row.email);
  // The receipt that offers a new booking (an admin's release, never a visitor's act) is not
  // held back by the address's one receipt a day: it is the only word of the lost slot.
  const reserved = gone ? { ok: true } : await receiptLimiter().consume(key);
  if (!reserved.ok) return "limited";
  try {
    queueMail({
      to: row.email,
      subject: RECEIPT_SUBJECT,
      kind: RECEIPT_KIND,
      requestId: row.id,
      content: {
        greeting: visitorGreeting(row.name),
        paragraphs: [
          `vielen Dank! Deine Anfrage ist bei uns eingegangen und hat die Nummer #${formatRequestId(row.id)}.`,
          // The promise as the pipeline tracks it (ADR 346).
          `Wir sehen sie uns sofort an. Deine Testversion bekommst du ${trialPromise()}.`,
          gone
            ? SLOT_GONE_PARAGRAPH
            : bookingEnabled()
              ? "Möchtest du sie dir mit uns gemeinsam ansehen? Dann buch dir einen persönlichen Demo-Termin – über den Link unten, auf jedem Gerät. Dort kannst du deine Anfrage auch jederzeit ansehen oder zurückziehen."
              : "Für deinen persönlichen Demo-Termin melden wir uns bei dir. Über den Link unten kannst du deine Anfrage auf jedem Gerät ansehen oder zurückziehen.",
          "Du hast uns nichts geschickt? Dann hat jemand deine Adresse eingetragen. Über den Link kannst du die Anfrage zurückziehen; sonst musst du nichts tun.",
        ],
        action: { label: gone ? SLOT_GONE_ACTION : "Meine Anfrage öffnen", url: link },
      },
    });
    return "queued";
  } catch (error) {
    if (!gone) await receiptLimiter().refund(key);
    throw error;
  }
}
