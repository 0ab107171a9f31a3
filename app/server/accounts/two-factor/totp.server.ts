import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";
import { BRAND_NAME } from "~/lib/brand";
import { isTotpCode } from "~/lib/two-factor";
import { admins } from "~db/schema";
import { sealer } from "../../platform/crypto.server";
import { db } from "../../platform/db.server";

/**
 * TOTP per RFC 6238 (SHA-1, 30 s, 6 digits) with otplib (ADR 256). The secret is sealed at rest
 * with AES-256-GCM under a key derived from SESSION_SECRET (purpose "admin-totp-secret"): a copy of
 * the database yields no secret, and losing SESSION_SECRET means every admin enrols again. Each code
 * works once: the last accepted time step is stored and only later steps are accepted.
 */

const box = sealer("admin-totp-secret");

export const sealSecret = (secret: string): string => box.seal(secret);

/** The plain secret; null when it is not sealed or no current key opens it (SESSION_SECRET lost). */
export const openSecret = (sealed: string | null): string | null =>
  sealed ? box.open(sealed) : null;

/** A new random secret (20 bytes, base32) and the otpauth:// URL an authenticator app scans. */
export function newSecret(label: string) {
  const secret = generateSecret();
  return { secret, otpauthUrl: otpauthUrl(secret, label) };
}

export const otpauthUrl = (secret: string, label: string) =>
  generateURI({ issuer: BRAND_NAME, label, secret });

/** The QR code of an otpauth URL as an SVG document (server-rendered, no script needed). */
export function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
}

/** The current Unix time in seconds (Date.now, so tests can move it with a fake clock). */
const epochNow = () => Math.floor(Date.now() / 1000);

/**
 * Checks a TOTP code against the admin's secret (±30 s) and, when right, stores its time step so the
 * same code (or an older one) is refused from now on. The update is conditional: of two parallel
 * uses of one code exactly one wins.
 */
export async function acceptTotpCode(
  row: { id: number; totpSecret: string | null; totpLastStep: number | null },
  code: string,
): Promise<boolean> {
  const secret = openSecret(row.totpSecret);
  const token = code.replace(/\s/g, "");
  if (!secret || !isTotpCode(token)) return false;
  const epoch = epochNow();
  const afterTimeStep = row.totpLastStep ?? undefined;
  // otplib refuses an afterTimeStep beyond the window: then no code of the window is new anyway.
  if (afterTimeStep !== undefined && afterTimeStep >= Math.floor((epoch + 30) / 30)) return false;
  let timeStep: number;
  try {
    const result = await verify({ secret, token, epoch, epochTolerance: 30, afterTimeStep });
    if (!result.valid || !("timeStep" in result)) return false;
    timeStep = result.timeStep;
  } catch {
    return false;
  }
  const claimed = db()
    .update(admins)
    .set({ totpLastStep: timeStep })
    .where(
      and(
        eq(admins.id, row.id),
        or(isNull(admins.totpLastStep), lt(admins.totpLastStep, timeStep)),
        sql`${admins.totpSecret} = ${row.totpSecret}`,
      ),
    )
    .run().changes;
  return claimed === 1;
}
