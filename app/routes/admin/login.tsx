import { data, Link, redirect, useNavigation } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import {
  AccountForm,
  AccountSubmit,
  PasswordField,
  UsernameField,
} from "~/components/admin/account-fields";
import { AccountShell, accountPageHandle } from "~/components/admin/account-shell";
import { Alert } from "~/components/ui/field";
import { useConformForm } from "~/components/ui/form";
import { LoginSchema } from "~/lib/auth-forms";
import { commitSessionCookie, getAdmin } from "~/server/auth.server";
import { landingPath, loginWithForm } from "~/server/login.server";
import { clientIp } from "~/server/request-context.server";
import type { Route } from "./+types/login";

export const handle = accountPageHandle;

export const meta: Route.MetaFunction = () => [{ title: "Admin-Login" }];

/** Notices of the pages that lead here; an account awaiting activation is told what comes next. */
const NOTICES: Record<string, { text: string; tone: "success" | "info" }> = {
  registered: {
    text: "Ihr Konto wartet auf die Freischaltung durch einen Administrator. Die Admins wurden benachrichtigt; sobald Ihr Konto freigeschaltet ist, können Sie sich hier anmelden.",
    tone: "info",
  },
  reset: {
    text: "Ihr Passwort wurde zurückgesetzt. Bitte melden Sie sich mit dem neuen Passwort an.",
    tone: "success",
  },
  "logged-out": { text: "Sie wurden abgemeldet.", tone: "success" },
};

export async function loader({ request }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const admin = await getAdmin(request);
  if (admin) throw redirect(landingPath(admin, url.searchParams.get("redirectTo")));
  const notice = NOTICES[url.searchParams.get("notice") ?? ""] ?? null;
  return { notice, redirectTo: url.searchParams.get("redirectTo") ?? "" };
}

export async function action({ request, context }: Route.ActionArgs) {
  const outcome = await loginWithForm(request, clientIp(context));
  switch (outcome.kind) {
    case "ok":
      throw redirect(outcome.redirectTo, {
        headers: { "Set-Cookie": await commitSessionCookie(outcome.token) },
      });
    case "invalid":
      return data(
        { result: outcome.submission.reply({ hideFields: ["password"] }), at: Date.now() },
        { status: 400 },
      );
    case "inactive":
      // A registration awaiting activation is no failure: a neutral notice, not a red error.
      if (outcome.awaiting) {
        return data(
          {
            result: outcome.submission.reply({ hideFields: ["password"] }),
            notice: outcome.message,
            at: Date.now(),
          },
          { status: 403 },
        );
      }
      return data(
        {
          result: outcome.submission.reply({
            formErrors: [outcome.message],
            hideFields: ["password"],
          }),
          at: Date.now(),
        },
        { status: 403 },
      );
    default:
      return data(
        {
          result: outcome.submission.reply({
            formErrors: [outcome.message],
            hideFields: ["password"],
          }),
          at: Date.now(),
        },
        {
          status: outcome.kind === "limited" ? 429 : 401,
          headers:
            outcome.kind === "limited"
              ? { "Retry-After": String(outcome.retryAfterSeconds) }
              : undefined,
        },
      );
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const [form, fields] = useConformForm(LoginSchema, actionData?.result);
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const checking =
    navigation.state === "loading" && navigation.location.pathname !== "/admin/login";
  return (
    <AccountShell
      title="Admin-Login"
      subtitle="Melden Sie sich an, um den Admin-Bereich zu öffnen."
    >
      {/* One message at a time: a failed attempt's error replaces the notice that led here. */}
      {loaderData.notice && !actionData ? (
        <Alert tone={loaderData.notice.tone}>{loaderData.notice.text}</Alert>
      ) : null}
      {actionData && "notice" in actionData ? (
        <Alert tone="info">{String(actionData.notice)}</Alert>
      ) : null}
      <AccountForm form={form} hidden={{ redirectTo: loaderData.redirectTo }}>
        <UsernameField meta={fields.username} />
        <PasswordField
          meta={fields.password}
          label="Passwort"
          key={`password-${actionData?.at ?? 0}`}
          autoComplete="current-password"
        />
        <AccountSubmit submitting={submitting} pending="Anmeldung läuft...">
          Anmelden
        </AccountSubmit>
        {checking ? (
          <p role="status" className="text-center text-sm text-slate-500 dark:text-slate-400">
            Überprüfe Authentifizierung...
          </p>
        ) : null}
      </AccountForm>
      <p className="text-center text-sm">
        <Link
          to="/admin/forgot-password"
          className="font-medium text-indigo-600 hover:underline focus-visible:outline-2 dark:text-indigo-400"
        >
          Passwort vergessen?
        </Link>
      </p>
    </AccountShell>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountError error={error} fallback="Login fehlgeschlagen - Ungültige Antwort vom Server" />
  );
}
