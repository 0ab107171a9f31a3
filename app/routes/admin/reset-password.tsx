import { parseWithZod } from "@conform-to/zod/v4";
import { useEffect, useState } from "react";
import { data, useNavigation } from "react-router";
import { AccountRetryError } from "~/components/admin/account-error";
import { AccountForm, AccountSubmit, PasswordField } from "~/components/admin/account-fields";
import { accountOutcome } from "~/components/admin/account-redirect";
import { AccountLink, AccountShell, accountPageHandle } from "~/components/admin/account-shell";
import { useConformForm } from "~/components/ui/form";
import {
  MESSAGES,
  passwordStrength,
  RESET_MIN_LENGTH,
  ResetPasswordFormSchema,
} from "~/lib/auth-forms";
import { checkResetToken, resetPassword } from "~/server/accounts/password-reset.server";
import { readForm } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";
import { failureReply } from "~/server/platform/result.server";
import { refuseFilledHoneypot } from "~/server/spam/honeypot.server";
import type { Route } from "./+types/reset-password";

export const handle = accountPageHandle;

export const meta: Route.MetaFunction = () => [{ title: "Passwort zurücksetzen" }];

export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!token) return { token, invalid: MESSAGES.resetTokenMissing };
  if (!checkResetToken(token)) return { token, invalid: MESSAGES.resetTokenInvalid };
  return { token, invalid: null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
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

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
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
  const strength = passwordStrength(password, refusedAsWeak);
  const invalid = password.length < RESET_MIN_LENGTH || password !== confirm;
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
              <span
                data-testid="password-strength"
                className={
                  strength === "Stark"
                    ? "font-semibold text-green-700 dark:text-green-400"
                    : "font-semibold text-red-600 dark:text-red-400"
                }
              >
                Passwortstärke: {strength}
              </span>
            ) : (
              `Mindestens ${RESET_MIN_LENGTH} Zeichen, schwer zu erraten.`
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
