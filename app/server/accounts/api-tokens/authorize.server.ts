import { and, eq, isNull } from "drizzle-orm";
import { matchRoutes } from "react-router";
import { API_ROUTE_SCOPES, type ScopeDecision, scopeDecision } from "~/api-scopes";
import { API_TOKEN_PREFIX, isApiScope, API_TOKEN_MESSAGES as M } from "~/lib/api-tokens";
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

const flatRoutes = Object.keys(API_ROUTE_SCOPES).map((pattern) => ({ path: `/${pattern}` }));

/** The /api route pattern of a path (as app/routes.ts ranks them), or null. */
export function apiPatternOf(pathname: string): string | null {
  const match = matchRoutes(flatRoutes, pathname)?.at(-1);
  return match ? (match.route.path as string).slice(1) : null;
}

/** What the table of app/api-scopes.ts says about this request. */
export function decisionFor(request: Request): ScopeDecision {
  const pattern = apiPatternOf(new URL(request.url).pathname);
  return pattern ? scopeDecision(pattern, request.method) : "session";
}

export type TokenAuthorization =
  | { ok: true; admin: typeof admins.$inferSelect; tokenId: number }
  | { ok: false; status: 401 | 403; error: string };

/**
 * The one check of an API token (ADR 260): unknown, revoked or expired → 401; a route the table
 * keeps for sessions → 401; a scope the token lacks → 403; else the token's admin (inactive → 401).
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
  const decision = decisionFor(request);
  if (decision === "session" || decision === "public") {
    return { ok: false, status: 401, error: M.sessionOnly };
  }
  const scopes = parseScopes(row.token.scopes);
  if (!scopes.includes(decision)) return { ok: false, status: 403, error: M.outOfScope(decision) };
  if (
    !row.token.lastUsedAt ||
    now.getTime() - row.token.lastUsedAt.getTime() >= TOUCH_INTERVAL_MS
  ) {
    db().update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.token.id)).run();
  }
  return { ok: true, admin: row.admin, tokenId: row.token.id };
}

export function parseScopes(stored: string) {
  try {
    const list: unknown = JSON.parse(stored);
    return Array.isArray(list) ? list.filter(isApiScope) : [];
  } catch {
    return [];
  }
}
