import { parseWithZod } from "@conform-to/zod/v4";
import { data, useNavigation } from "react-router";
import { AccountRetryError } from "~/components/admin/account-error";
import { AccountForm, AccountSubmit, EmailField } from "~/components/admin/account-fields";
import { AccountLink, AccountShell, accountPageHandle } from "~/components/admin/account-shell";
import { Alert } from "~/components/ui/field";
import { useConformForm } from "~/components/ui/form";
import { ForgotPasswordSchema } from "~/lib/auth-forms";
import { requestPasswordReset } from "~/server/accounts/password-reset.server";
import { readForm } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";
import { mailConfigured } from "~/server/mail/outbox.server";
import { refuseFilledHoneypot } from "~/server/spam/honeypot.server";
import type { Route } from "./+types/forgot-password";

export const handle = accountPageHandle;

export const meta: Route.MetaFunction = () => [{ title: "Passwort vergessen" }];

/** Whether mail can leave this server at all (a global setting: says nothing about accounts). */
export function loader() {
  return { mailConfigured: mailConfigured() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const formData = await readForm(request);
  refuseFilledHoneypot(formData);
  const submission = parseWithZod(formData, { schema: ForgotPasswordSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), success: null }, { status: 400 });
  }
  const result = await requestPasswordReset(submission.value.email, clientIp(context));
  if (!result.ok) {
    return data(
      { result: submission.reply({ formErrors: [result.error] }), success: null },
      { status: 429, headers: { "Retry-After": String(result.retryAfterSeconds) } },
    );
  }
  return { result: submission.reply({ resetForm: true }), success: result.message };
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useConformForm(ForgotPasswordSchema, actionData?.result);
  const submitting = navigation.state === "submitting";
  return (
    <AccountShell
      title="Passwort vergessen"
      subtitle="Geben Sie die E-Mail-Adresse Ihres Admin-Kontos ein. Sie erhalten einen Link zum Zurücksetzen."
    >
      {loaderData.mailConfigured ? null : (
        <Alert tone="warning">
          <div className="space-y-2" data-testid="no-smtp-notice">
            <p className="font-semibold">
              Auf diesem Server ist kein E-Mail-Versand (SMTP) eingerichtet: Es wird keine E-Mail
              mit einem Link verschickt.
            </p>
            <p>
              So erhalten Sie trotzdem einen Link zum Zurücksetzen: Ein anderer Admin erzeugt ihn
              unter „Benutzer“ mit „Passwort-Reset-Link erzeugen“. Gibt es keinen anderen Admin,
              erzeugt ihn, wer Zugriff auf den Server hat, mit{" "}
              <code className="font-mono text-xs">
                npm run admin:reset-password -- &lt;Benutzername oder E-Mail&gt;
              </code>
              .
            </p>
          </div>
        </Alert>
      )}
      {actionData?.success ? (
        <Alert tone={loaderData.mailConfigured ? "success" : "info"}>
          <span data-testid="forgot-answer">{actionData.success}</span>
        </Alert>
      ) : null}
      <AccountForm form={form}>
        <EmailField meta={fields.email} />
        <AccountSubmit submitting={submitting} pending="Wird gesendet...">
          Link senden
        </AccountSubmit>
      </AccountForm>
      <AccountLink to="/admin/login">Zurück zum Login</AccountLink>
    </AccountShell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountRetryError error={error} />;
}
