import type { Submission as ConformSubmission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { eq, sql } from "drizzle-orm";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { awaitingActivationMessage } from "~/lib/activation-notice";
import { awaitsActivation } from "~/lib/admin-users";
import { LoginSchema, MESSAGES } from "~/lib/auth-forms";
import { PASSKEY_MESSAGES, WebAuthnResponseSchema } from "~/lib/passkeys";
import { isAdminReturnPath } from "~/lib/return-path";
import { LoginCodeSchema } from "~/lib/two-factor";
import { admins } from "~db/schema";
import { jsonError, readForm } from "../http/http.server";
import { mailConfigured } from "../mail/outbox.server";
import {
  dummyPasswordHash,
  hashPassword,
  needsRehash,
  verifyPassword,
} from "../platform/crypto.server";
import { db } from "../platform/db.server";
import {
  accountLoginLimiter,
  consumeAll,
  loginLimiter,
  refundAll,
  tooManyMessage,
} from "../platform/rate-limit.server";
import { audit } from "../privacy/audit.server";
import { refuseFilledHoneypot } from "../spam/honeypot.server";
import {
  type AdminUser,
  type CompletedLogin,
  createSession,
  owesEnrollment,
  type SessionClient,
  toAdminUser,
} from "./auth.server";
import { knownAdminIds } from "./known-device.server";
import { accountCounterKey, loginKeys, recordLoginFailure, userKey } from "./login-lock.server";
import { type PasskeyLoginOutcome, verifyPasskeyLogin } from "./passkeys/passkey-login.server";
import { hasPasskeys } from "./passkeys/webauthn.server";
import { resetLinkNotice } from "./reset-link.server";
import {
  type ChallengeOutcome,
  challengeAdminId,
  createLoginChallenge,
  verifyLoginChallenge,
} from "./two-factor/challenge.server";

type LoginValues = typeof LoginSchema._zod.output;
type Submission = ConformSubmission<LoginValues>;

/** What one login attempt ends in; the page and the API turn it into their answer. */
export type LoginOutcome =
  | { kind: "invalid"; submission: Submission & { status: "error" } }
  | { kind: "limited"; submission: Submission; retryAfterSeconds: number; message: string }
  | { kind: "failed"; submission: Submission; message: string }
  | { kind: "inactive"; submission: Submission; message: string; awaiting: boolean }
  | { kind: "mfa"; submission: Submission; challenge: string; methods: SecondFactors }
  | ({ kind: "ok"; submission: Submission } & CompletedLogin);

/** What the second step of an admin accepts: a TOTP code (or recovery code), a passkey. */
export type SecondFactors = { code: boolean; passkey: boolean };

/**
 * Where an admin goes after login: the forced password change first, then the owed 2FA enrolment,
 * then the wanted page.
 */
export function landingPath(
  admin: AdminUser & { mfaEnrollmentRequired?: boolean },
  wanted?: string | null,
) {
  if (!admin.password_changed) return "/admin/change-password?firstLogin=1";
  if (admin.mfaEnrollmentRequired) return "/admin/account#sicherheit";
  if (isAdminReturnPath(wanted)) return wanted;
  return "/admin/dashboard";
}

function findByUsername(username: string) {
  return db()
    .select()
    .from(admins)
    .where(sql`lower(${admins.username}) = lower(${username})`)
    .get();
}

/**
 * The rule of logging in: rate limit per client, per network and per client + username (failures
 * only), the same answer for an unknown user and a wrong password (a dummy hash keeps the timing),
 * inactive admins refused.
 */
async function attempt(form: FormData, ip: string, request: Request): Promise<LoginOutcome> {
  const submission = parseWithZod(form, { schema: LoginSchema });
  if (submission.status !== "success") {
    return { kind: "invalid", submission: submission as Submission & { status: "error" } };
  }
  const { username, password, redirectTo } = submission.value;
  const userAgent = request.headers.get("user-agent");
  const row = findByUsername(username);
  // A browser this admin logged in with before is not held by the account's lock (ADR 317).
  const knownDevice = row ? (await knownAdminIds(request)).has(row.id) : false;
  // Reserve the attempt before the password check (N parallel attempts: exactly the limit get
  // through); a successful login gives its reservation back. Per client, per client + name and per
  // name from any address (ADR 263; an unknown name the same way).
  // The client's counter has the network's beside it (ADR 357), except for a known device.
  const perClient = loginKeys(ip, knownDevice);
  const state = await consumeAll([
    ...perClient,
    [loginLimiter(), userKey(ip, username)],
    [accountLoginLimiter(), accountCounterKey(username, knownDevice)],
  ]);
  if (!state.ok) {
    return {
      kind: "limited",
      submission,
      retryAfterSeconds: state.retryAfterSeconds,
      // A reset lifts the lock (clearLoginLock), so the way out is named.
      message: `${tooManyMessage(state.retryAfterSeconds, "admin")} Über „Passwort vergessen?“ können Sie Ihr Passwort auch gleich zurücksetzen.`,
    };
  }
  const valid = await verifyPassword(password, row?.passwordHash ?? (await dummyPasswordHash()));
  if (!row || !valid) {
    await recordLoginFailure(username, ip);
    return { kind: "failed", submission, message: MESSAGES.loginFailed };
  }
  if (!row.isActive) {
    // Never active: a registration still awaiting activation (the admins were told); a
    // deactivated account hears that it is off, also when it never logged in (ADR 358).
    const awaiting = awaitsActivation(row);
    const message = awaiting ? awaitingActivationMessage(mailConfigured()) : MESSAGES.loginInactive;
    return { kind: "inactive", submission, message, awaiting };
  }
  await refundAll(perClient);
  await loginLimiter().reset(userKey(ip, username));
  // A known device counted on its own counter and lifts only that: strangers stay held.
  await accountLoginLimiter().reset(accountCounterKey(username, knownDevice));
  // Hashes made with older scrypt parameters are upgraded now, while the password is at hand (ADR 091).
  if (needsRehash(row.passwordHash)) {
    const passwordHash = await hashPassword(password);
    db().update(admins).set({ passwordHash }).where(eq(admins.id, row.id)).run();
  }
  // With 2FA the password opens nothing yet: a challenge for the code step (ADR 256); a passkey
  // counts as the second factor too (ADR 280).
  const methods = { code: row.totpEnabled, passkey: hasPasskeys(row.id) };
  if (methods.code || methods.passkey) {
    return {
      kind: "mfa",
      submission,
      challenge: createLoginChallenge(row.id, redirectTo),
      methods,
    };
  }
  return { kind: "ok", submission, ...completeLogin(row, { userAgent, ip }, redirectTo) };
}

/** The end of every login (password alone, password and code or passkey, passkey alone): the session, audited. */
export function completeLogin(
  row: typeof admins.$inferSelect,
  client: SessionClient,
  redirectTo?: string | null,
  via?: "passkey",
): CompletedLogin {
  const notice = resetLinkNotice(row);
  const lastLogin = new Date();
  db().update(admins).set({ lastLogin }).where(eq(admins.id, row.id)).run();
  const admin = {
    ...toAdminUser({ ...row, lastLogin }),
    mfaEnrollmentRequired: owesEnrollment(row),
  };
  const token = createSession(row.id, client);
  const details = via ? { passkey: true } : row.totpEnabled ? { zweiFaktor: true } : undefined;
  audit(admin, "login", admin.username, details);
  return { admin, token, redirectTo: landingPath(admin, redirectTo), notice };
}

/** remix-auth with the form strategy; the verify callback never throws for a wrong login. */
export function loginAuthenticator(ip: string) {
  const authenticator = new Authenticator<LoginOutcome>();
  authenticator.use(
    new FormStrategy(({ form, request }) => attempt(form, ip, request)),
    "admin-login",
  );
  return authenticator;
}

type CodeSubmission = ConformSubmission<typeof LoginCodeSchema._zod.output>;

/** What the code step of the login page ends in (the challenge goes back into the form). */
export type CodeStepOutcome = {
  challenge: string;
  submission: CodeSubmission;
  methods: SecondFactors;
  /** The step was a passkey's answer (its error is the form's, not the code field's). */
  passkey?: boolean;
} & ({ kind: "invalid" } | ChallengeOutcome | PasskeyLoginOutcome<CompletedLogin>);

/** The second factors of the admin behind a live password-step challenge (the code step shows them). */
export function challengeMethods(challenge: string): SecondFactors {
  const adminId = challengeAdminId(challenge);
  if (!adminId) return { code: true, passkey: false };
  const row = db().select().from(admins).where(eq(admins.id, adminId)).get();
  return { code: Boolean(row?.totpEnabled), passkey: hasPasskeys(adminId) };
}

/**
 * Login from the HTML form (urlencoded or multipart body, read bounded by readForm): the password
 * step, or with `intent=code` the code step of an admin with 2FA.
 */
export async function loginWithForm(
  request: Request,
  ip: string,
): Promise<
  | { step: "password"; outcome: LoginOutcome }
  | { step: "code"; outcome: CodeStepOutcome }
  | { step: "passkey"; outcome: PasskeyLoginOutcome<CompletedLogin> }
> {
  const form = await readForm(request);
  refuseFilledHoneypot(form);
  const client = { userAgent: request.headers.get("user-agent"), ip };
  const intent = form.get("intent");
  if (intent === "code" || intent === "passkey-second") {
    const challenge = String(form.get("challenge") ?? "").slice(0, 200);
    const methods = challengeMethods(challenge);
    if (intent === "passkey-second") {
      // The passkey instead of the code (the page's script posts the browser's answer here).
      const submission = parseWithZod(form, { schema: LoginCodeSchema });
      const response = passkeyResponseOf(form);
      const result = response
        ? await verifyPasskey({ challenge, response }, client, request)
        : { kind: "failed" as const, message: PASSKEY_MESSAGES.loginFailed };
      return {
        step: "code",
        outcome: { ...result, challenge, submission, methods, passkey: true },
      };
    }
    const submission = parseWithZod(form, { schema: LoginCodeSchema });
    if (submission.status !== "success") {
      return { step: "code", outcome: { kind: "invalid", challenge, submission, methods } };
    }
    const result = await verifyLogin(submission.value, client);
    return { step: "code", outcome: { ...result, challenge, submission, methods } };
  }
  if (intent === "passkey") {
    const response = passkeyResponseOf(form);
    const redirectTo = String(form.get("redirectTo") ?? "");
    const outcome = response
      ? await verifyPasskey({ response, redirectTo }, client, request)
      : { kind: "failed" as const, message: PASSKEY_MESSAGES.loginFailed };
    return { step: "passkey", outcome };
  }
  const outcome = await loginWithCredentials(request, ip, {
    username: form.get("username"),
    password: form.get("password"),
    redirectTo: form.get("redirectTo"),
  });
  return { step: "password", outcome };
}

/** Login from `POST /api/admin/auth/login` JSON: the same strategy on a form-encoded copy. */
export function loginWithCredentials(
  request: Request,
  ip: string,
  body: { username?: unknown; password?: unknown; redirectTo?: unknown },
) {
  const form = new URLSearchParams();
  if (typeof body.username === "string") form.set("username", body.username);
  if (typeof body.password === "string") form.set("password", body.password);
  if (typeof body.redirectTo === "string") form.set("redirectTo", body.redirectTo);
  const formRequest = new Request(request.url, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "user-agent": request.headers.get("user-agent") ?? "",
      // The known-device cookie (ADR 317) goes along.
      cookie: request.headers.get("cookie") ?? "",
    },
    body: form,
  });
  return loginAuthenticator(ip).authenticate("admin-login", formRequest);
}

/** The code step (page and `POST /api/admin/auth/login/verify`): challenge + code → session. */
export function verifyLogin(
  input: { challenge: string; code?: string; recoveryCode?: string },
  client: SessionClient,
) {
  return verifyLoginChallenge(input, (row, redirectTo) => completeLogin(row, client, redirectTo));
}

/** The browser's WebAuthn answer from a form field (JSON), or null when it is no such answer. */
function passkeyResponseOf(form: FormData) {
  const raw = form.get("response");
  if (typeof raw !== "string" || raw.length > 20_000) return null;
  try {
    const parsed = WebAuthnResponseSchema.safeParse(JSON.parse(raw));
    return parsed.success ? (parsed.data as unknown as AuthenticationResponseJSON) : null;
  } catch {
    return null;
  }
}

/**
 * A passkey login (page and `POST /api/admin/auth/passkey/verify`): with the password step's
 * challenge the second step, without it instead of password and code (ADR 280).
 */
export async function verifyPasskey(
  input: { challenge?: string; response: AuthenticationResponseJSON; redirectTo?: string | null },
  client: SessionClient & { ip: string },
  request: Request,
) {
  return verifyPasskeyLogin(input, client.ip, await knownAdminIds(request), (row, redirectTo) =>
    completeLogin(row, client, redirectTo, "passkey"),
  );
}

/**
 * The JSON answer of every successful API login (password, code step, passkey): the token, the
 * admin, and the notices the login page shows as a toast (a reset link another admin created).
 */
export function loginJson(outcome: CompletedLogin) {
  return Response.json(
    {
      success: true,
      token: outcome.token,
      admin: outcome.admin,
      notices: outcome.notice ? [outcome.notice] : [],
      message: "Login erfolgreich",
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/**
 * The JSON answer of an API login step after the password (code or passkey): the login answer,
 * 429 with Retry-After when limited, otherwise 401 with the step's German message.
 */
export function loginStepJson(outcome: ChallengeOutcome | PasskeyLoginOutcome<CompletedLogin>) {
  switch (outcome.kind) {
    case "ok":
      return loginJson(outcome);
    case "limited":
      return jsonError(outcome.message, 429, {
        headers: { "Retry-After": String(outcome.retryAfterSeconds) },
      });
    default:
      return jsonError(outcome.message, 401);
  }
}
