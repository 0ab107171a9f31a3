import { and, eq, gt, isNull, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { hashToken } from "./crypto.server";

/** A table of single-use link tokens (invitations, password resets): only the hash is stored. */
type LinkTokenTable = { tokenHash: SQLiteColumn; usedAt: SQLiteColumn; expiresAt: SQLiteColumn };

/**
 * The one test of a usable link token, for look-ups and for the update that uses it up: its hash
 * matches, it is not used yet and not expired.
 */
export function usableToken(table: LinkTokenTable, token: string, now = new Date()): SQL {
  return and(
    eq(table.tokenHash, hashToken(token)),
    isNull(table.usedAt),
    gt(table.expiresAt, now),
  ) as SQL;
}
