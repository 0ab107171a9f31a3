import { data, Form, useNavigation } from "react-router";
import { AccountRetryError } from "~/components/admin/account-error";
import { AccountLink, AccountShell, accountPageHandle } from "~/components/admin/account-shell";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { ACCOUNT_MESSAGES } from "~/lib/account-form";
import { confirmEmailChange, verifyEmailChangeToken } from "~/server/accounts/account.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { readForm } from "~/server/http/http.server";
import type { Route } from "./+types/account-email-confirm";

export const handle = accountPageHandle;

export const meta: Route.MetaFunction = () => [
  { title: "E-Mail-Adresse bestätigen" },
  { name: "robots", content: "noindex" },
];

/**
 * The link from the mail to a new own address. Opening it changes nothing (mail scanners open
 * links too); the button does, and the old address is told.
 */
export function loader({ request }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const verified = verifyEmailChangeToken(token);
  if (!verified.ok)
    return data({ token: "", email: null, error: verified.error }, { status: verified.status });
  return { token: token ?? "", email: verified.newEmail, error: null };
}

export async function action({ request }: Route.ActionArgs) {
  const form = await readForm(request);
  const token = form.get("token");
  const result = confirmEmailChange(typeof token === "string" ? token : null);
  if (!result.ok) return data({ error: result.error }, { status: result.status });
  throw await redirectWithToast("/admin/account", {
    type: "success",
    message: ACCOUNT_MESSAGES.emailConfirmed(result.email),
  });
}

export default function ConfirmEmail({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const error = actionData?.error ?? loaderData.error;
  return (
    <AccountShell
      title="E-Mail-Adresse bestätigen"
      subtitle={
        loaderData.email ? (
          <>
            Neue Adresse: <strong>{loaderData.email}</strong>
          </>
        ) : null
      }
    >
      {error ? (
        <>
          <Alert>{error}</Alert>
          <AccountLink to="/admin/account">Zu den Account-Einstellungen</AccountLink>
        </>
      ) : (
        <Form method="post" className="space-y-4">
          <input type="hidden" name="token" value={loaderData.token} />
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Mit der Bestätigung gehen Benachrichtigungen und Links zum Zurücksetzen des Passworts an
            diese Adresse. Ihre bisherige Adresse wird informiert.
          </p>
          <Button type="submit" className="w-full" disabled={navigation.state === "submitting"}>
            E-Mail-Adresse bestätigen
          </Button>
        </Form>
      )}
    </AccountShell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountRetryError error={error} />;
}
