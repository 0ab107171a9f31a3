import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { data } from "react-router";
import { ConfigurationSchema } from "~/lib/configuration";
import {
  STEP_UP_MESSAGES as M,
  STEP_UP_FIELDS,
  STEP_UP_MINUTES,
  type StepUpProof,
  StepUpProofSchema,
  type StepUpStepData,
} from "~/lib/step-up";
import { admins, sessions } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { db } from "../platform/db.server";
import { type Failure, failure } from "../platform/result.server";
import type { SessionAdmin } from "./auth.server";
import { checkCodeLimited, checkPasswordLimited, isFailure } from "./two-factor/step-up.server";
import { acceptSecondFactor } from "./two-factor/two-factor.server";

/**
 * Step-up for power over other admins (ADR 315): resetting another admin's 2FA, a reset link,
 * (de)activating, deleting, activating an invitation directly and changing the 2FA rule need a
 * proof of the acting admin from the last 5 minutes — the password or a current code, checked on
 * the login's counters (two-factor/step-up.server.ts). The proof is kept on the session row
 * (`step_up_at`): bound to this session, gone at logout. An API token never proves anything.
 * The page and its /api twin call the same check: `requireStepUp`.
 */

const VALID_MS = STEP_UP_MINUTES * 60_000;

/** Whether this session proved itself in the last 5 minutes. */
export function stepUpFresh(admin: Pick<SessionAdmin, "tokenHash">, now = new Date()): boolean {
  if (!admin.tokenHash) return false;
  const row = db()
    .select({ at: sessions.stepUpAt })
    .from(sessions)
    .where(eq(sessions.tokenHash, admin.tokenHash))
    .get();
  const age = row?.at ? now.getTime() - row.at.getTime() : Number.POSITIVE_INFINITY;
  return age >= 0 && age < VALID_MS;
}

const refused = (status: number, error: string, field?: string): Failure =>
  failure(status, error, field);

/**
 * The check of both faces: ok when the session proved itself within 5 minutes, or `proof` proves
 * it now (then kept for the next 5 minutes); else 403 (nothing or a wrong proof, its field named)
 * or the login counters' 429.
 */
export async function requireStepUp(
  admin: SessionAdmin,
  proof: StepUpProof,
): Promise<{ ok: true } | Failure> {
  if (!admin.tokenHash) return refused(403, M.tokenNever);
  if (stepUpFresh(admin)) return { ok: true };
  const row = db().select().from(admins).where(eq(admins.id, admin.id)).get();
  if (!row) return refused(404, "Admin nicht gefunden.");
  const password = proof?.password;
  const code = proof?.code?.trim();
  if (password) {
    const proven = await checkPasswordLimited(row, password);
    if (isFailure(proven)) return proven;
    if (!proven) return refused(403, M.passwordWrong, STEP_UP_FIELDS.password);
  } else if (code) {
    const proven = await checkCodeLimited(row.id, () => acceptSecondFactor(row, { code }));
    if (isFailure(proven)) return proven;
    if (!proven) return refused(403, M.codeWrong, STEP_UP_FIELDS.code);
  } else {
    return refused(403, M.required);
  }
  db()
    .update(sessions)
    .set({ stepUpAt: new Date() })
    .where(eq(sessions.tokenHash, admin.tokenHash))
    .run();
  return { ok: true };
}

/**
 * `/api`: the refused step-up as JSON — `{ success: false, error, message, stepUpRequired: true,
 * fieldErrors? }` with its status (and `Retry-After` on a 429).
 */
export function stepUpJson(f: Failure): Response {
  return Response.json(
    {
      success: false,
      error: f.error,
      message: f.error,
      ...(f.field ? { fieldErrors: { [f.field]: [f.error] } } : {}),
      stepUpRequired: true,
    },
    {
      status: f.status,
      headers: f.retryAfterSeconds ? { "Retry-After": String(f.retryAfterSeconds) } : undefined,
    },
  );
}

/** The proof of a page's form (`stepUp.password`, `stepUp.code`); oversized input is no proof. */
export function proofOfForm(form: FormData): StepUpProof {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" && value ? value : undefined;
  };
  const parsed = StepUpProofSchema.safeParse({
    password: text(STEP_UP_FIELDS.password),
    code: text(STEP_UP_FIELDS.code),
  });
  return parsed.success ? parsed.data : undefined;
}

/**
 * A page action's step-up: null when the session may go on; otherwise the answer to return — the
 * server step (`<StepUpStep>`) that posts the rest of the form again with the proof, with the
 * error of a wrong proof. `action` names what is being confirmed.
 */
export async function stepUpStep(form: FormData, admin: SessionAdmin, action: string) {
  const proof = proofOfForm(form);
  const result = await requireStepUp(admin, proof);
  if (result.ok) return null;
  const fields: Record<string, string> = {};
  for (const [name, value] of form) {
    if (typeof value === "string" && !name.startsWith("stepUp.")) fields[name] = value;
  }
  const given = Boolean(proof?.password || proof?.code);
  const step: StepUpStepData = {
    stepUp: {
      id: randomUUID(),
      action,
      fields,
      code: admin.twoFactorEnabled,
      ...(given
        ? {
            error: result.error,
            ...(result.field
              ? { field: result.field === STEP_UP_FIELDS.code ? "code" : "password" }
              : {}),
          }
        : {}),
    },
  };
  return data(step, {
    status: given ? result.status : 200,
    headers: result.retryAfterSeconds
      ? { "Retry-After": String(result.retryAfterSeconds) }
      : undefined,
  });
}

/**
 * Whether saving `next` (a whole configuration document) would switch the rule "Zwei-Faktor-
 * Anmeldung für alle Admins verlangen": only that change of the settings asks for the step-up.
 */
export function changesTwoFactorRule(next: unknown): boolean {
  const stored = getConfiguration().security.requireTwoFactor;
  // Fail closed: a body that names the rule asks for the step-up whenever it differs, whether or
  // not the rest of it parses yet (the save fills in stored secrets before it validates).
  const named = (next as { security?: { requireTwoFactor?: unknown } } | null)?.security
    ?.requireTwoFactor;
  if (typeof named === "boolean" && named !== stored) return true;
  const parsed = ConfigurationSchema.safeParse(next);
  return parsed.success && parsed.data.security.requireTwoFactor !== stored;
}
