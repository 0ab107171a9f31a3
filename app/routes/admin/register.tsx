import { parseWithZod } from "@conform-to/zod/v4";
import { data, useNavigation } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import {
  AccountForm,
  AccountSubmit,
  PasswordField,
  UsernameField,
} from "~/components/admin/account-fields";
import { accountOutcome } from "~/components/admin/account-redirect";
import { AccountShell, accountPageHandle } from "~/components/admin/account-shell";
import { useConformForm } from "~/components/ui/form";
import { MESSAGES, PASSWORD_RULE_HINT, RegisterFormSchema } from "~/lib/auth-forms";
import { findValidInvitation, registerWithInvitation } from "~/server/accounts/invitations.server";
import { readForm } from "~/server/http/http.server";
import { failureReply } from "~/server/platform/result.server";
import { refuseFilledHoneypot } from "~/server/spam/honeypot.server";
import type { Route } from "./+types/register";

export const handle = accountPageHandle;

export const meta: Route.MetaFunction = () => [{ title: "Registrierung" }];

export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!token) return { token, email: null, invalid: MESSAGES.invitationTokenMissing };
  const invitation = findValidInvitation(token);
  if (!invitation) return { token, email: null, invalid: MESSAGES.invitationInvalid };
  return { token, email: invitation.email, invalid: null };
}

export async function action({ request }: Route.ActionArgs) {
  const formData = await readForm(request);
  refuseFilledHoneypot(formData);
  const submission = parseWithZod(formData, { schema: RegisterFormSchema });
  const hideFields = ["password", "confirmPassword"];
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields }), success: null }, { status: 400 });
  }
  const result = await registerWithInvitation(submission.value);
  if (!result.ok) {
    // A taken username or a guessable password: the message goes to its field.
    const reply = failureReply(submission, result, { hideFields });
    return data({ result: reply, success: null }, { status: result.status });
  }
  return { result: submission.reply({ resetForm: true }), success: result.message };
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useConformForm(RegisterFormSchema, actionData?.result);
  const outcome = accountOutcome({
    success: {
      message: actionData?.success,
      title: "Registrierung abgeschlossen",
      to: "/admin/login?notice=registered",
    },
    invalid: {
      message: loaderData.invalid,
      title: "Registrierung",
      help: (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Öffnen Sie den vollständigen Einladungslink aus Ihrer Einladung. Ist er abgelaufen,
          schickt Ihnen ein Admin gern einen neuen.
        </p>
      ),
    },
  });
  if (outcome) return outcome;
  const submitting = navigation.state === "submitting";
  return (
    <AccountShell
      title="Registrierung"
      subtitle={`Sie wurden als ${loaderData.email} eingeladen. Wählen Sie Benutzername und Passwort.`}
    >
      <AccountForm form={form} hidden={{ invitationToken: loaderData.token }}>
        <UsernameField meta={fields.username} />
        <PasswordField
          meta={fields.password}
          label="Passwort"
          autoComplete="new-password"
          hint={PASSWORD_RULE_HINT}
        />
        <PasswordField
          meta={fields.confirmPassword}
          label="Passwort bestätigen"
          autoComplete="new-password"
        />
        <AccountSubmit submitting={submitting} pending="Wird registriert...">
          Registrieren
        </AccountSubmit>
      </AccountForm>
    </AccountShell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Registrierung fehlgeschlagen" />;
}
