import { createHmac, timingSafeEqual } from "node:crypto";
import { eq } from "drizzle-orm";
import { appointments } from "~db/schema";
import { derivedKeys } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { failure, type Result } from "../platform/result.server";

/**
 * The visitor's link to cancel or reschedule a booked demo without an account:
 * `/termin/verwalten?token=<payload>.<signature>`, payload = base64url("id.sequence.expiry").
 * The HMAC (key derived from SESSION_SECRET, every secret of the rotation list verifies) also
 * covers the booking's random uid, so a token names one booking only; its sequence is raised on
 * every change, so links of an earlier revision are outdated. It expires at the appointment's start.
 */
export const MANAGE_PATH = "/termin/verwalten";

type AppointmentRow = typeof appointments.$inferSelect;

const keys = () => derivedKeys("appointment-manage-link");

const sign = (key: Buffer, payload: string, uid: string) =>
  createHmac("sha256", key).update(`${payload}|${uid}`).digest();

export function manageToken(
  row: Pick<AppointmentRow, "id" | "sequence" | "externalUid" | "startTime">,
): string {
  const expiry = Math.floor(row.startTime.getTime() / 1000);
  const payload = Buffer.from(`${row.id}.${row.sequence}.${expiry}`).toString("base64url");
  const [key] = keys();
  return `${payload}.${sign(key as Buffer, payload, row.externalUid).toString("base64url")}`;
}

export function manageUrl(row: Parameters<typeof manageToken>[0]): string {
  return `${env().APP_URL}${MANAGE_PATH}?token=${manageToken(row)}`;
}

export type ManageLinkResult = Result<{ appointment: AppointmentRow }>;

export const LINK_INVALID =
  "Dieser Link ist ungültig. Bitte nutze den Link aus deiner letzten Termin-E-Mail.";
export const LINK_EXPIRED =
  "Dieser Link ist abgelaufen: Der Termin hat bereits begonnen oder liegt in der Vergangenheit.";
export const LINK_OUTDATED =
  "Dieser Link ist nicht mehr gültig, weil der Termin inzwischen geändert wurde. Bitte nutze den Link aus deiner neuesten Termin-E-Mail.";
export const APPOINTMENT_GONE = "Diesen Termin gibt es nicht mehr.";
export const LINK_CANCELLED =
  "Dieser Termin wurde bereits abgesagt. Wenn du doch eine Demo möchtest, buche bitte einen neuen Termin.";

/**
 * Checks a manage token: forged, malformed or naming an unknown booking → 400 (the signature is
 * verified before anything about the booking is told), expired or outdated → 410.
 */
export function verifyManageToken(token: string | null, now = Date.now()): ManageLinkResult {
  const invalid = failure(400, LINK_INVALID);
  if (!token || token.length > 200) return invalid;
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return invalid;
  const fields = Buffer.from(payload, "base64url").toString("utf8").split(".");
  const [id, sequence, expiry] = fields.map((f) => (/^\d{1,15}$/.test(f) ? Number(f) : Number.NaN));
  if (fields.length !== 3 || [id, sequence, expiry].some((n) => !Number.isSafeInteger(n)))
    return invalid;
  const row = db()
    .select()
    .from(appointments)
    .where(eq(appointments.id, id as number))
    .get();
  const given = Buffer.from(signature, "base64url");
  // An unknown id is checked against a uid no booking has, so it costs the same and answers
  // the same 400 as a forged signature: the link does not reveal which booking ids exist.
  const uid = row?.externalUid ?? "\u0000no-booking";
  const genuine = keys().some((key) => {
    const expected = sign(key, payload, uid);
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  if (!row || !genuine) return invalid;
  if ((expiry as number) * 1000 <= now || row.startTime.getTime() <= now)
    return failure(410, LINK_EXPIRED);
  if (sequence !== row.sequence)
    return failure(410, row.status === "CANCELLED" ? LINK_CANCELLED : LINK_OUTDATED);
  return { ok: true, appointment: row };
}
