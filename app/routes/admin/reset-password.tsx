import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { data, useFetcher, useNavigation } from "react-router";
import { AccountRetryError } from "~/components/admin/account-error";
import { AccountForm, AccountSubmit, PasswordField } from "~/components/admin/account-fields";
import { accountOutcome } from "~/components/admin/account-redirect";
import { AccountLink, AccountShell, accountPageHandle } from "~/components/admin/account-shell";
import { useConformForm } from "~/components/ui/form";
import {
  MESSAGES,
  PASSWORD_RULE_HINT,
  type PasswordStrength,
  passwordStrength,
  RESET_MIN_LENGTH,
  ResetPasswordFormSchema,
} from "~/lib/auth-forms";
import {
  checkResetToken,
  rateNewPassword,
  resetPassword,
} from "~/server/accounts/password-reset.server";
import { readForm } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";
import { failureReply } from "~/server/platform/result.server";
import { refuseFilledHoneypot } from "~/server/spam/honeypot.server";
import type { Route } from "./+types/reset-password";

export const handle = accountPageHandle;

export const meta: Route.MetaFunction = () => [{ title: "Passwort zurücksetzen" }];

/** A refused strength check's Retry-After (429) reaches the browser. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

const STRENGTH_INTENT = "strength";
type Rating = { rating: { strength: PasswordStrength; message: string | null } | null };

export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!token) return { token, invalid: MESSAGES.resetTokenMissing };
  if (!checkResetToken(token)) return { token, invalid: MESSAGES.resetTokenInvalid };
  return { token, invalid: null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  // The indicator's check while typing (JS only): the server's rule, never a client guess.
  if (formData.get("intent") === STRENGTH_INTENT) {
    const rated = await rateNewPassword(
      String(formData.get("token") ?? ""),
      String(formData.get("newPassword") ?? ""),
      clientIp(context),
    );
    // Refused by a limit: the wait in seconds, like every 429 (ADR 310).
    const wait = !rated.ok && "retryAfterSeconds" in rated ? rated.retryAfterSeconds : null;
    return data(
      { rating: rated.ok ? { strength: rated.strength, message: rated.message } : null },
      {
        status: rated.ok ? 200 : rated.status,
        headers: wait ? { "Retry-After": String(wait) } : undefined,
      },
    );
  }
  refuseFilledHoneypot(formData);
  const submission = parseWithZod(formData, { schema: ResetPasswordFormSchema });
  const hideFields = ["newPassword", "confirmPassword"];
  if (submission.status !== "success") {
    return data(
      { result: submission.reply({ hideFields }), success: null, weak: false },
      { status: 400 },
    );
  }
  const result = await resetPassword(
    submission.value.token,
    submission.value.newPassword,
    clientIp(context),
  );
  if (!result.ok) {
    // A guessable password: zxcvbn's feedback under the field, the indicator says "Zu schwach".
    const reply = failureReply(submission, result, { hideFields });
    return data(
      { result: reply, success: null, weak: Boolean(result.field) },
      { status: result.status },
    );
  }
  return { result: submission.reply({ resetForm: true }), success: result.message, weak: false };
}

export default function ResetPassword({ loaderData, actionData: posted }: Route.ComponentProps) {
  const navigation = useNavigation();
  const actionData = posted && "result" in posted ? posted : undefined;
  const [form, fields] = useConformForm(ResetPasswordFormSchema, actionData?.result);
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  // Before hydration (and without JS) the button stays enabled; the server validates.
  const [hydrated, setHydrated] = useState(false);
  // The server refused the typed password as guessable; typing again clears the verdict.
  const [refusedAsWeak, setRefusedAsWeak] = useState(false);
  useEffect(() => setRefusedAsWeak(Boolean(actionData?.weak)), [actionData]);
  const newPasswordId = fields.newPassword.id;
  const confirmId = fields.confirmPassword.id;
  // The server's verdict on what is typed (a pause of 300 ms after the last keystroke).
  const strengthCheck = useFetcher();
  const [asked, setAsked] = useState<string | null>(null);
  const submitCheck = strengthCheck.submit;
  useEffect(() => {
    if (!hydrated || password.length < RESET_MIN_LENGTH) return;
    const timer = window.setTimeout(() => {
      setAsked(password);
      void submitCheck(
        { intent: STRENGTH_INTENT, token: loaderData.token, newPassword: password },
        { method: "post" },
      );
    }, 300);
    return () => window.clearTimeout(timer);
  }, [password, hydrated, loaderData.token, submitCheck]);
  const answer =
    strengthCheck.state === "idle" && asked === password && strengthCheck.data
      ? (strengthCheck.data as Rating)
      : undefined;
  const verdict = refusedAsWeak
    ? "Zu schwach"
    : answer?.rating?.strength === "Stark" || answer?.rating?.strength === "Zu schwach"
      ? answer.rating.strength
      : null;
  useEffect(() => {
    // What was typed (or filled by a password manager) before hydration fired no onChange:
    // pick it up, or the button would turn disabled with both fields filled.
    setPassword(readInput(newPasswordId));
    setConfirm(readInput(confirmId));
    setHydrated(true);
  }, [newPasswordId, confirmId]);

  const outcome = accountOutcome({
    success: {
      message: actionData?.success,
      title: "Passwort zurückgesetzt",
      to: "/admin/login?notice=reset",
    },
    invalid: {
      message: loaderData.invalid,
      title: "Passwort zurücksetzen",
      help: <AccountLink to="/admin/forgot-password">Neuen Reset-Link anfordern</AccountLink>,
    },
  });
  if (outcome) return outcome;
  const strength = passwordStrength(password, verdict);
  // Refused by the limit or an error: the server decides when the form is sent.
  const unrated = answer !== undefined && answer.rating === null;
  const invalid =
    password.length < RESET_MIN_LENGTH || password !== confirm || strength === "Zu schwach";
  const submitting = navigation.state === "submitting";
  return (
    <AccountShell title="Passwort zurücksetzen" subtitle="Legen Sie ein neues Passwort fest.">
      <AccountForm form={form} hidden={{ token: loaderData.token }}>
        <PasswordField
          meta={fields.newPassword}
          label="Neues Passwort"
          autoComplete="new-password"
          onChange={(e) => {
            setPassword(e.currentTarget.value);
            setRefusedAsWeak(false);
          }}
          hint={
            hydrated && (password || refusedAsWeak) ? (
              <span role="status">
                <span
                  data-testid="password-strength"
                  className={
                    strength === "Stark"
                      ? "font-semibold text-green-700 dark:text-green-400"
                      : strength === null
                        ? "font-semibold text-slate-600 dark:text-slate-300"
                        : "font-semibold text-red-600 dark:text-red-400"
                  }
                >
                  Passwortstärke:{" "}
                  {strength ?? (unrated ? "wird beim Speichern geprüft" : "wird geprüft …")}
                </span>
                {strength === "Zu schwach" && answer?.rating?.message ? (
                  <span className="block">{answer.rating.message}</span>
                ) : strength === "Zu kurz" ? (
                  <span className="block">{PASSWORD_RULE_HINT}</span>
                ) : null}
              </span>
            ) : (
              PASSWORD_RULE_HINT
            )
          }
        />
        <PasswordField
          meta={fields.confirmPassword}
          label="Passwort bestätigen"
          autoComplete="new-password"
          onChange={(e) => setConfirm(e.currentTarget.value)}
        />
        <AccountSubmit
          submitting={submitting}
          pending="Wird gespeichert..."
          disabled={submitting || (hydrated && invalid)}
        >
          Passwort zurücksetzen
        </AccountSubmit>
      </AccountForm>
    </AccountShell>
  );
}

function readInput(id: string): string {
  const input = document.getElementById(id);
  return input instanceof HTMLInputElement ? input.value : "";
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountRetryError error={error} />;
}
