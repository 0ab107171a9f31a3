import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, useNavigation } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { Button, buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Alert } from "~/components/ui/field";
import { ConformForm, Field, useConformForm } from "~/components/ui/form";
import {
  ChangePasswordFormSchema,
  MESSAGES,
  PASSWORD_MIN_LENGTH,
  PASSWORD_RULE_HINT,
} from "~/lib/auth-forms";
import { isDeliverableAddress } from "~/lib/mail-address";
import { changePassword } from "~/server/accounts/admins.server";
import { requireAdmin } from "~/server/accounts/auth.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { readForm } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";
import { failureReply } from "~/server/platform/result.server";
import type { Route } from "./+types/change-password";

export const meta: Route.MetaFunction = () => [{ title: "Account-Einstellungen" }];

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, { allowPendingPasswordChange: true });
  const firstLogin =
    !admin.password_changed || new URL(request.url).searchParams.get("firstLogin") === "1";
  return { firstLogin, username: admin.username };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, { allowPendingPasswordChange: true });
  const formData = await readForm(request);
  const submission = parseWithZod(formData, { schema: ChangePasswordFormSchema });
  const hideFields = ["oldPassword", "newPassword", "confirmPassword"];
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields }), success: null }, { status: 400 });
  }
  const { oldPassword, newPassword } = submission.value;
  const result = await changePassword(
    admin.id,
    oldPassword,
    newPassword,
    admin.tokenHash,
    clientIp(context),
  );
  if (!result.ok) {
    return data(
      { result: failureReply(submission, result, { hideFields }), success: null },
      { status: result.status },
    );
  }
  if (!admin.password_changed) {
    // Still the default address (admin@localhost.localdomain): next stop, the own e-mail address.
    const next = isDeliverableAddress(admin.email) ? "/admin/dashboard" : "/admin/account";
    throw await redirectWithToast(next, {
      type: "success",
      message: MESSAGES.changeSuccess,
    });
  }
  return { result: submission.reply({ resetForm: true }), success: MESSAGES.changeSuccess };
}

export default function ChangePassword({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useConformForm(ChangePasswordFormSchema, actionData?.result);
  const submitting = navigation.state === "submitting";
  // Without JS the server's answer focuses the first field it refused (with JS Conform does).
  const firstInvalid = ["oldPassword", "newPassword", "confirmPassword"].find(
    (name) => (actionData?.result?.error?.[name]?.length ?? 0) > 0,
  );
  return (
    <div className="mx-auto grid max-w-4xl gap-6 lg:grid-cols-[2fr_1fr]">
      <Card className="space-y-5 p-6">
        <div>
          <h1 className="text-2xl font-bold">Passwort ändern</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            Angemeldet als {loaderData.username}
          </p>
        </div>
        {loaderData.firstLogin ? (
          <Alert tone="warning">
            Willkommen! Dies ist Ihre erste Anmeldung. Bitte ersetzen Sie das vorläufige Passwort
            durch ein eigenes, bevor Sie den Admin-Bereich nutzen.
          </Alert>
        ) : null}
        {actionData?.success ? <Alert tone="success">{actionData.success}</Alert> : null}
        <ConformForm form={form}>
          {(
            [
              [fields.oldPassword, "Aktuelles Passwort", "current-password", undefined],
              [fields.newPassword, "Neues Passwort", "new-password", PASSWORD_RULE_HINT],
              [fields.confirmPassword, "Neues Passwort bestätigen", "new-password", undefined],
            ] as const
          ).map(([meta, label, autoComplete, hint]) => (
            <Field
              key={meta.name}
              meta={meta}
              label={label}
              type="password"
              autoComplete={autoComplete}
              hint={hint}
              autoFocus={firstInvalid === meta.name}
              required
            />
          ))}
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={submitting}>
              {submitting ? "Wird gespeichert..." : "Passwort ändern"}
            </Button>
            {loaderData.firstLogin ? null : (
              <Link to="/admin/dashboard" className={buttonClass("secondary")}>
                Zurück zum Dashboard
              </Link>
            )}
          </div>
        </ConformForm>
      </Card>
      <Card className="h-fit space-y-3 p-6">
        <h2 className="text-lg font-semibold">Sicherheitstipps</h2>
        <ul className="list-disc space-y-1.5 pl-5 text-sm text-slate-600 dark:text-slate-300">
          <li>
            Das neue Passwort braucht mindestens {PASSWORD_MIN_LENGTH} Zeichen und darf nicht leicht
            zu erraten sein – der Server lehnt gängige Wörter, Namen, Tastaturfolgen und
            Wiederholungen ab.
          </li>
          <li>Leicht zu merken und schwer zu erraten: mehrere zufällige Wörter mit Zahlen.</li>
          <li>Verwenden Sie kein Passwort, das Sie bereits anderswo nutzen.</li>
          <li>Nach der Änderung werden Ihre anderen Sitzungen abgemeldet.</li>
        </ul>
      </Card>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountError error={error} fallback="Passwort-Änderung fehlgeschlagen" back="dashboard" />
  );
}
