import { and, eq, gt, isNotNull, lt, or } from "drizzle-orm";
import { redirect } from "react-router";
import { API_TOKEN_MESSAGES, type ApiScope } from "~/lib/api-tokens";
import { maskNetwork } from "~/lib/client-description";
import { backPath, loginPath } from "~/lib/return-path";
import { TWO_FACTOR_MESSAGES } from "~/lib/two-factor";
import { admins, passwordResets, sessions } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { jsonError } from "../http/http.server";
import { signedCookie } from "../http/signed-cookie.server";
import { hashToken, randomToken } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { env } from "../platform/env.server";
import { actingVia } from "../privacy/audit-via.server";
import { authorizeApiToken, bearerApiToken, isApiToken } from "./api-tokens/authorize.server";
import { hasPasskeys } from "./passkeys/webauthn.server";

/** The hard end of a session: 30 days after the login, however active. */
export const SESSION_TTL_MS = 30 * 24 * 3600_000;
/** last_used_at is written at most this often per session (keeps reads cheap). */
const TOUCH_INTERVAL_MS = 60_000;
/** The idle end: a session unused for SESSION_IDLE_HOURS (default 12) is over. */
export const sessionIdleMs = () => env().SESSION_IDLE_HOURS * 3600_000;

export type AdminUser = {
  id: number;
  username: string;
  email: string;
  is_active: boolean;
  last_login: string | null;
  password_changed: boolean;
};

/** httpOnly, SameSite=Lax, Secure in production; signed; holds only the opaque session token. */
export const sessionCookie = signedCookie("__session", SESSION_TTL_MS / 1000);

export function toAdminUser(row: typeof admins.$inferSelect): AdminUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    is_active: row.isActive,
    last_login: row.lastLogin ? row.lastLogin.toISOString() : null,
    password_changed: row.passwordChanged,
  };
}

/** Who logs in: the User-Agent and the IP (only its /24 or /48 network is kept). */
export type SessionClient = { userAgent: string | null; ip?: string };

/** Creates a session row (hash only) and returns the raw token for cookie and Bearer use. */
export function createSession(
  adminId: number,
  client: SessionClient = { userAgent: null },
): string {
  const token = randomToken();
  const now = new Date();
  db()
    .insert(sessions)
    .values({
      tokenHash: hashToken(token),
      adminId,
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
      userAgent: client.userAgent?.slice(0, 300) || null,
      publicId: randomToken(12),
      network: maskNetwork(client.ip),
    })
    .run();
  return token;
}

export async function commitSessionCookie(token: string) {
  return sessionCookie().serialize(token);
}

export async function destroySessionCookie() {
  return sessionCookie().serialize("", { maxAge: 0 });
}

/** A finished login: the session token and the admin's JSON (with the 2FA enrolment still owed). */
export type CompletedLogin = {
  admin: AdminUser & { mfaEnrollmentRequired: boolean };
  token: string;
  redirectTo: string;
  /** Something the admin must hear at this login (a reset link another admin created). */
  notice: string | null;
};

/** The raw token from `Authorization: Bearer …` or the session cookie. */
export async function readSessionToken(request: Request): Promise<string | null> {
  const auth = request.headers.get("authorization");
  if (auth?.toLowerCase().startsWith("bearer ")) return auth.slice(7).trim() || null;
  const value = await sessionCookie().parse(request.headers.get("cookie"));
  return typeof value === "string" && value ? value : null;
}

/** What a session knows beyond the admin's JSON: 2FA on, and whether enrolment is still owed. */
export type SessionAdmin = AdminUser & {
  /** The session's token hash; "" when an API token authenticated the call. */
  tokenHash: string;
  twoFactorEnabled: boolean;
  /** "Zwei-Faktor-Anmeldung für alle Admins verlangen" is on and this admin has none yet. */
  mfaEnrollmentRequired: boolean;
  /** The scopes of the API token that authenticated the call; absent for a session. */
  tokenScopes?: readonly ApiScope[];
};

/** Whether the admin owes the enrolment the 2FA rule asks for (ADRs 256, 280): no TOTP, no passkey. */
export const owesEnrollment = (row: { id: number; totpEnabled: boolean }) =>
  !row.totpEnabled &&
  getConfiguration().security.requireTwoFactor &&
  // A passkey is a second factor too (ADR 280): the rule accepts either.
  !hasPasskeys(row.id);

/** The active admin behind this request's token, or null. */
export async function getAdmin(request: Request): Promise<SessionAdmin | null> {
  const token = await readSessionToken(request);
  // An API token is no session: only requireApiAdmin looks at it, within its scopes.
  if (!token || isApiToken(token)) return null;
  const tokenHash = hashToken(token);
  const now = new Date();
  const row = db()
    .select({ admin: admins, lastUsedAt: sessions.lastUsedAt })
    .from(sessions)
    .innerJoin(admins, eq(admins.id, sessions.adminId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        gt(sessions.expiresAt, now),
        gt(sessions.lastUsedAt, new Date(now.getTime() - sessionIdleMs())),
      ),
    )
    .get();
  if (!row?.admin.isActive) return null;
  if (now.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    db().update(sessions).set({ lastUsedAt: now }).where(eq(sessions.tokenHash, tokenHash)).run();
  }
  actingVia("session");
  return {
    ...toAdminUser(row.admin),
    tokenHash,
    twoFactorEnabled: row.admin.totpEnabled,
    mfaEnrollmentRequired: owesEnrollment(row.admin),
  };
}

/**
 * The page path + query a request is for: client-side data requests arrive as `/x.data?…`
 * (and `_routes`), which must not leak into redirect targets or path checks.
 */
export function documentPath(request: Request) {
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  const pathname = url.pathname.replace(/\/_root\.data$/, "/").replace(/\.data$/, "");
  return pathname + url.search;
}

/** The page a form action redirects back to (with its query, without the `index` marker). */
export function backTo(request: Request) {
  const url = new URL(request.url);
  return backPath(url.pathname, url.search);
}

export const FIRST_LOGIN_PATH = "/admin/change-password?firstLogin=1";
/** Where an admin who owes the 2FA enrolment is sent (the "Sicherheit" section). */
export const ENROLMENT_PATH = "/admin/account#sicherheit";

type PendingOptions = {
  allowPendingPasswordChange?: boolean;
  /** The enrolment the 2FA rule asks for may still be owed (account page, 2FA setup). */
  allowPendingEnrollment?: boolean;
};

/**
 * For HTML routes: the admin, or a redirect to the login page (with a safe redirectTo). While the
 * admin's first password change is pending, every page loader and action redirects to the
 * change-password page instead — except those that pass `allowPendingPasswordChange` (the layout,
 * which redirects itself, and change-password; logout needs no admin). After it, while the 2FA
 * enrolment is owed, they redirect to the account page — except those that pass
 * `allowPendingEnrollment` (or `allowPendingPasswordChange`). Actions run before the layout loader,
 * so each one must be guarded here, not only the layout.
 */
export async function requireAdmin(request: Request, options: PendingOptions = {}) {
  // Pages and form actions are never open to an API token (ADR 260).
  if (bearerApiToken(request)) throw unauthorized(API_TOKEN_MESSAGES.sessionOnly);
  const admin = await getAdmin(request);
  if (admin) {
    if (!admin.password_changed && !options.allowPendingPasswordChange) {
      throw redirect(FIRST_LOGIN_PATH);
    }
    if (
      admin.mfaEnrollmentRequired &&
      !options.allowPendingEnrollment &&
      !options.allowPendingPasswordChange
    ) {
      throw redirect(ENROLMENT_PATH);
    }
    return admin;
  }
  throw redirect(loginPath(documentPath(request)), {
    headers: { "Set-Cookie": await destroySessionCookie() },
  });
}

export const PASSWORD_CHANGE_PENDING =
  "Bitte ändern Sie zuerst Ihr Passwort, bevor Sie weitere Aktionen ausführen.";

/**
 * For /api routes: the admin, or a 401 JSON answer. While the admin's first password change is
 * pending, every admin call answers 403 — except those that pass `allowPendingPasswordChange`
 * (verify, change-password; logout needs no admin). After it, while the 2FA enrolment is owed,
 * likewise — except those that pass `allowPendingEnrollment` (2FA setup and enable) or
 * `allowPendingPasswordChange`.
 */
export async function requireApiAdmin(request: Request, options: PendingOptions = {}) {
  const admin = await getApiCaller(request);
  if (admin) {
    if (!admin.password_changed && !options.allowPendingPasswordChange) {
      throw jsonError(PASSWORD_CHANGE_PENDING, 403);
    }
    if (
      admin.mfaEnrollmentRequired &&
      !options.allowPendingEnrollment &&
      !options.allowPendingPasswordChange
    ) {
      throw jsonError(TWO_FACTOR_MESSAGES.enrollmentPending, 403);
    }
    return admin;
  }
  throw unauthorized("Nicht angemeldet oder Sitzung abgelaufen.");
}

const unauthorized = (message: string) =>
  Response.json({ success: false, error: message, message }, { status: 401 });

/**
 * The caller of an admin /api call: the session's admin, or — for `Bearer apt_…` — the API token's
 * admin when the running handler's `scope` is one of its scopes (ADR 306; 401/403 thrown).
 */
async function getApiCaller(request: Request): Promise<SessionAdmin | null> {
  const token = bearerApiToken(request);
  if (!token) return getAdmin(request);
  const outcome = authorizeApiToken(token, request);
  if (!outcome.ok) {
    if (outcome.status === 401) throw unauthorized(outcome.error);
    throw jsonError(outcome.error, 403);
  }
  // What this token does is audited with its id (ADR 319).
  actingVia(`token:${outcome.tokenId}`);
  return {
    ...toAdminUser(outcome.admin),
    tokenHash: "",
    twoFactorEnabled: outcome.admin.totpEnabled,
    mfaEnrollmentRequired: owesEnrollment(outcome.admin),
    tokenScopes: outcome.scopes,
  };
}

/** For public /api calls with extra data for admins: the admin, unless a password change or 2FA enrolment is pending. */
export async function getApiAdmin(request: Request) {
  const admin = await getAdmin(request);
  return admin?.password_changed && !admin.mfaEnrollmentRequired ? admin : null;
}

/**
 * Logout: deletes this request's session row (whatever its state) and returns the clearing cookie.
 * Never fails: logout always ends on the login page (spec, "Logout always navigates to login, even
 * on error"); a row that cannot be deleted is logged and expires on its own.
 */
export async function endSession(request: Request) {
  try {
    const token = await readSessionToken(request);
    if (token) deleteSession(hashToken(token));
  } catch (error) {
    console.error(
      "Abmelden: Sitzung nicht gelöscht:",
      error instanceof Error ? error.message : error,
    );
  }
  return destroySessionCookie();
}

export function deleteSession(tokenHash: string) {
  db().delete(sessions).where(eq(sessions.tokenHash, tokenHash)).run();
}

/** Ends every session of an admin except, optionally, the current one. */
export function deleteOtherSessions(adminId: number, keepTokenHash?: string) {
  const all = db()
    .select({ tokenHash: sessions.tokenHash })
    .from(sessions)
    .where(eq(sessions.adminId, adminId))
    .all();
  for (const s of all) if (s.tokenHash !== keepTokenHash) deleteSession(s.tokenHash);
}

/** Deletes expired or idle sessions and reset tokens that can no longer be used (used or expired). */
export function sweepAccountTokens(now = new Date()) {
  const idleSince = new Date(now.getTime() - sessionIdleMs());
  const expiredSessions = db()
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, now), lt(sessions.lastUsedAt, idleSince)))
    .run().changes;
  const deadResets = db()
    .delete(passwordResets)
    .where(or(lt(passwordResets.expiresAt, now), isNotNull(passwordResets.usedAt)))
    .run().changes;
  return { expiredSessions, deadResets };
}

let sweepTimer: NodeJS.Timeout | undefined;
/** Background task (boot.server.ts): the sweep at start and then hourly. */
export const accountSweepTask = {
  start() {
    sweepAccountTokens();
    sweepTimer ??= setInterval(() => sweepAccountTokens(), 3600_000);
    sweepTimer.unref();
  },
  stop() {
    if (sweepTimer) clearInterval(sweepTimer);
    sweepTimer = undefined;
  },
};
