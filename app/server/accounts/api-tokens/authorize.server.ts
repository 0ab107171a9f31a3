import { and, eq, isNull } from "drizzle-orm";
import {
  API_TOKEN_PREFIX,
  type ApiScope,
  isApiScope,
  API_TOKEN_MESSAGES as M,
} from "~/lib/api-tokens";
import { admins, apiTokens } from "~db/schema";
import { hashToken } from "../../platform/crypto.server";
import { db } from "../../platform/db.server";

/** lastUsedAt is written at most this often per token (keeps calls cheap). */
const TOUCH_INTERVAL_MS = 60_000;

export const isApiToken = (token: string | null | undefined): token is string =>
  !!token?.startsWith(API_TOKEN_PREFIX);

/** The API token of `Authorization: Bearer apt_…`, or null (no Bearer, or a session token). */
export function bearerApiToken(request: Request): string | null {
  const auth = request.headers.get("authorization");
  if (!auth?.toLowerCase().startsWith("bearer ")) return null;
  const token = auth.slice(7).trim();
  return isApiToken(token) ? token : null;
}

/**
 * Who may make an admin `/api` call with an API token (ADR 306): the holders of a scope, or nobody
 * (`"session"`: only a logged-in admin). Each `adminApi` handler names it as its `scope` option.
 */
export type TokenAccess = ApiScope | "session";

// The token access of the handler that runs for a request, bound by `adminApi`
// (app/server/http/api-route.server.ts) before it authenticates: the route module React Router
// chose decides, never a second reading of the URL (a `.data` or other spelling of the path once
// matched another route's entry here). A request nothing bound — a page, `onlyMethod`'s 405, a
// public handler — is "session".
const accessOf = new WeakMap<Request, TokenAccess>();

/** Called by the `/api` helper with the handler's `scope` for the method it answers. */
export function bindTokenAccess(request: Request, access: TokenAccess) {
  accessOf.set(request, access);
}

export type TokenAuthorization =
  | { ok: true; admin: typeof admins.$inferSelect; tokenId: number; scopes: ApiScope[] }
  | { ok: false; status: 401 | 403; error: string };

/**
 * The one check of an API token (ADR 260, 306): unknown, revoked or expired → 401; a call kept for
 * sessions → 401; a scope the token lacks → 403; else the token's admin (inactive → 401).
 */
export function authorizeApiToken(token: string, request: Request): TokenAuthorization {
  const now = new Date();
  const row = db()
    .select({ token: apiTokens, admin: admins })
    .from(apiTokens)
    .innerJoin(admins, eq(admins.id, apiTokens.adminId))
    .where(and(eq(apiTokens.tokenHash, hashToken(token)), isNull(apiTokens.revokedAt)))
    .get();
  if (!row || (row.token.expiresAt && row.token.expiresAt <= now) || !row.admin.isActive) {
    return { ok: false, status: 401, error: M.invalid };
  }
  const access = accessOf.get(request) ?? "session";
  if (access === "session") return { ok: false, status: 401, error: M.sessionOnly };
  const scopes = parseScopes(row.token.scopes);
  if (!scopes.includes(access)) return { ok: false, status: 403, error: M.outOfScope(access) };
  if (
    !row.token.lastUsedAt ||
    now.getTime() - row.token.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS
  ) {
    db().update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.token.id)).run();
  }
  return { ok: true, admin: row.admin, tokenId: row.token.id, scopes };
}

export function parseScopes(stored: string) {
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? list.filter(isApiScope) : [];
  } catch {
    return [];
  }
}
