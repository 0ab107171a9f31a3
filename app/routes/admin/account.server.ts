import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { API_TOKEN_MESSAGES, ApiTokenCreateSchema } from "~/lib/api-tokens";
import { PASSKEY_MESSAGES, PasskeyRemoveSchema } from "~/lib/passkeys";
import {
  RecoveryCodesSchema,
  TWO_FACTOR_MESSAGES,
  TwoFactorDisableSchema,
  TwoFactorEnableSchema,
  TwoFactorSetupSchema,
} from "~/lib/two-factor";
import { notifyTwoFactorRule } from "~/server/accounts/activation.server";
import { createApiToken, revokeApiToken } from "~/server/accounts/api-tokens/api-tokens.server";
import type { SessionAdmin } from "~/server/accounts/auth.server";
import { removePasskey, setPasskeyLogin } from "~/server/accounts/passkeys/passkeys.server";
import {
  endOtherSessions,
  endSessionById,
  SESSION_MESSAGES,
} from "~/server/accounts/sessions.server";
import { stepUpStep } from "~/server/accounts/step-up-guard.server";
import {
  disableTwoFactor,
  enableTwoFactor,
  regenerateRecoveryCodes,
  startTwoFactorSetup,
} from "~/server/accounts/two-factor/two-factor.server";
import { getConfiguration, patchConfiguration } from "~/server/configuration/configuration.server";
import { requireConfirmation } from "~/server/http/confirm.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { type Failure, failureReply } from "~/server/platform/result.server";

/** What a form of the "Sicherheit" section gets back (the recovery codes only this once). */
export type SecurityReply = {
  intent: string;
  result?: SubmissionResult<string[]>;
  message?: string;
  error?: string;
  recoveryCodes?: string[];
};

export const SECURITY_INTENTS = [
  "2fa-setup",
  "2fa-enable",
  "2fa-disable",
  "2fa-recovery-codes",
  "2fa-require",
] as const;

const reply = (security: SecurityReply, status = 200) =>
  data({ result: null, notice: null, security }, { status });

/** What an admin who owes the 2FA enrolment may post here: the enrolment only. */
export const ENROLLMENT_INTENTS: readonly string[] = ["2fa-setup", "2fa-enable"];

/**
 * Any other form while the enrolment is owed: nothing happens; back to the 2FA section with the
 * message (as every other admin page sends such a session there).
 */
export const enrollmentFirst = () =>
  redirectWithToast("/admin/account#sicherheit", {
    type: "error",
    message: TWO_FACTOR_MESSAGES.enrollmentPending,
  });

/** A refused 2FA rule: its message under its field (or as the form's error), with its status. */
const refused = (
  intent: string,
  submission: Submission<unknown>,
  failed: Failure,
  hideFields: string[],
) => reply({ intent, result: failureReply(submission, failed, { hideFields }) }, failed.status);

/** Form posts of the "Sicherheit" section of /admin/account (the same rules as the 2FA API). */
export async function handleSecurityIntent(intent: string, form: FormData, admin: SessionAdmin) {
  const hide = ["password", "code"];
  switch (intent) {
    case "2fa-setup": {
      const submission = parseWithZod(form, { schema: TwoFactorSetupSchema });
      if (submission.status !== "success")
        return reply({ intent, result: submission.reply({ hideFields: hide }) }, 400);
      const started = await startTwoFactorSetup(admin.id, submission.value.password);
      if (!started.ok) return refused(intent, submission, started, hide);
      // The loader shows the QR code and the secret of the started enrolment.
      return reply({ intent, result: submission.reply({ resetForm: true }) });
    }
    case "2fa-enable": {
      const submission = parseWithZod(form, { schema: TwoFactorEnableSchema });
      if (submission.status !== "success")
        return reply({ intent, result: submission.reply({ hideFields: hide }) }, 400);
      const enabled = await enableTwoFactor(admin, submission.value.code);
      if (!enabled.ok) return refused(intent, submission, enabled, hide);
      return reply({
        intent,
        message: TWO_FACTOR_MESSAGES.enabled,
        recoveryCodes: enabled.recoveryCodes,
      });
    }
    case "2fa-disable": {
      const submission = parseWithZod(form, { schema: TwoFactorDisableSchema });
      if (submission.status !== "success")
        return reply({ intent, result: submission.reply({ hideFields: hide }) }, 400);
      const { password, code } = submission.value;
      const disabled = await disableTwoFactor(admin, password, code);
      if (!disabled.ok) return refused(intent, submission, disabled, hide);
      return reply({ intent, message: TWO_FACTOR_MESSAGES.disabled });
    }
    case "2fa-recovery-codes": {
      const submission = parseWithZod(form, { schema: RecoveryCodesSchema });
      if (submission.status !== "success")
        return reply({ intent, result: submission.reply({ hideFields: hide }) }, 400);
      const renewed = await regenerateRecoveryCodes(admin.id, submission.value);
      if (!renewed.ok) return refused(intent, submission, renewed, hide);
      return reply({
        intent,
        message: TWO_FACTOR_MESSAGES.regenerated,
        recoveryCodes: renewed.recoveryCodes,
      });
    }
    case "2fa-require": {
      const on = form.get("requireTwoFactor") === "on";
      // Changing the rule for everyone asks for the step-up (ADR 315); saving it unchanged not.
      const changes = on !== getConfiguration().security.requireTwoFactor;
      if (changes) {
        const step = await stepUpStep(form, admin, TWO_FACTOR_MESSAGES.requireStepUp(on));
        if (step) return step;
      }
      const saved = patchConfiguration({ security: { requireTwoFactor: on } }, admin);
      if (!saved.ok) return reply({ intent, error: saved.error }, 400);
      if (changes) notifyTwoFactorRule(on, admin);
      return reply({ intent, message: TWO_FACTOR_MESSAGES.requireSaved(on) });
    }
    default:
      return reply({ intent, error: "Unbekannte Aktion." }, 400);
  }
}

/** Form posts of the passkeys in "Sicherheit": remove one (with proof), the login switch (ADR 280). */
export async function handlePasskeyIntent(intent: string, form: FormData, admin: SessionAdmin) {
  if (intent === "passkey-login") {
    const on = form.get("passkeyLogin") === "on";
    const saved = setPasskeyLogin(admin, on);
    if (!saved.ok) return reply({ intent, error: saved.error }, saved.status);
    return reply({ intent, message: PASSKEY_MESSAGES.loginSwitchSaved(on) });
  }
  if (intent !== "passkey-remove") return reply({ intent, error: "Unbekannte Aktion." }, 400);
  const id = Number(form.get("id"));
  const parsed = PasskeyRemoveSchema.safeParse({
    password: form.get("password") || undefined,
    code: form.get("code") || undefined,
  });
  if (!parsed.success) return reply({ intent, error: PASSKEY_MESSAGES.proofRequired }, 400);
  if (!Number.isSafeInteger(id) || id <= 0) {
    return reply({ intent, error: PASSKEY_MESSAGES.notFound }, 404);
  }
  const removed = await removePasskey(admin, id, parsed.data);
  if (!removed.ok) return reply({ intent, error: removed.error }, removed.status);
  return reply({ intent, message: PASSKEY_MESSAGES.removed(removed.name) });
}

/** What the "API-Zugänge" forms get back: the new token only this once. */
export type AccessReply = {
  intent: string;
  result?: SubmissionResult<string[]>;
  message?: string;
  error?: string;
  created?: { name: string; token: string };
};

const accessReply = (access: AccessReply, status = 200) =>
  data({ result: null, notice: null, access }, { status });

/**
 * Form posts for the admin's sessions ("Sicherheit") and API tokens ("API-Zugänge") on
 * /admin/account — the same rules as `…/account/sessions` and `…/api-tokens`.
 */
export async function handleAccessIntent(intent: string, form: FormData, admin: SessionAdmin) {
  switch (intent) {
    case "session-end": {
      const ended = endSessionById(admin, String(form.get("id") ?? "").slice(0, 100));
      if (!ended.ok) return reply({ intent, error: ended.error }, ended.status);
      return reply({ intent, message: SESSION_MESSAGES.ended });
    }
    case "sessions-end-others": {
      const n = endOtherSessions(admin);
      return reply({ intent, message: SESSION_MESSAGES.othersEnded(n) });
    }
    case "api-token-create": {
      const hide = ["password", "code"];
      const submission = parseWithZod(form, { schema: ApiTokenCreateSchema });
      if (submission.status !== "success")
        return accessReply({ intent, result: submission.reply({ hideFields: hide }) }, 400);
      const created = await createApiToken(admin, submission.value);
      if (!created.ok) {
        const result = failureReply(submission, created, { hideFields: hide });
        return accessReply({ intent, result }, created.status);
      }
      return accessReply({
        intent,
        result: submission.reply({ resetForm: true }),
        message: API_TOKEN_MESSAGES.created,
        created: { name: created.json.name, token: created.token },
      });
    }
    case "api-token-revoke": {
      // Asks first: the modal with JavaScript, a confirmation step without it.
      const step = requireConfirmation(form, {
        title: API_TOKEN_MESSAGES.revokeTitle,
        message: API_TOKEN_MESSAGES.revokeConfirm(),
        confirmLabel: "Widerrufen",
      });
      if (step) return step;
      const id = Number(form.get("id"));
      const revoked = Number.isSafeInteger(id) && id > 0 ? revokeApiToken(admin, id) : null;
      if (!revoked?.ok) return accessReply({ intent, error: API_TOKEN_MESSAGES.notFound }, 404);
      return accessReply({ intent, message: API_TOKEN_MESSAGES.revoked(revoked.name) });
    }
    default:
      return accessReply({ intent, error: "Unbekannte Aktion." }, 400);
  }
}
