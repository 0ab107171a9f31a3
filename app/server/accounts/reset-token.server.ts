import { passwordResets } from "~db/schema";
import { hashToken, randomToken } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";

export const RESET_TTL_MS = 3600_000;

export const resetUrl = (token: string) =>
  `${env().APP_URL}/admin/reset-password?token=${encodeURIComponent(token)}`;

/** A new single-use reset token for an admin (only its hash is stored); returns the raw token. */
export function createResetToken(adminId: number, ttlMs = RESET_TTL_MS): string {
  const token = randomToken();
  db()
    .insert(passwordResets)
    .values({ adminId, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + ttlMs) })
    .run();
  return token;
}
