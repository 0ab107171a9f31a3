import { useEffect, useState } from "react";
import { data, redirect, useLocation, useNavigate, useNavigation } from "react-router";
import { LoginCodeStep } from "~/components/admin/account/login-code-step";
import { PasskeyLoginButton } from "~/components/admin/account/passkey-login-button";
import { AccountError } from "~/components/admin/account-error";
import {
  AccountFooterLink,
  AccountForm,
  AccountSubmit,
  PasswordField,
  UsernameField,
} from "~/components/admin/account-fields";
import { AccountShell, accountPageHandle } from "~/components/admin/account-shell";
import { Alert } from "~/components/ui/field";
import { useConformForm } from "~/components/ui/form";
import { registeredNotice } from "~/lib/activation-notice";
import { LOGIN_TIMEOUT_MS, LoginSchema, MESSAGES } from "~/lib/auth-forms";
import { commitSessionCookie, getAdmin } from "~/server/accounts/auth.server";
import { knownDeviceCookie } from "~/server/accounts/known-device.server";
import { type CodeStepOutcome, landingPath, loginWithForm } from "~/server/accounts/login.server";
import { passkeyLoginOffered } from "~/server/accounts/passkeys/passkeys.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { clientIp } from "~/server/http/request-context.server";
import { mailConfigured } from "~/server/mail/outbox.server";
import type { Route } from "./+types/login";

export const handle = accountPageHandle;

export const meta: Route.MetaFunction = () => [{ title: "Admin-Login" }];

/** Notices of the pages that lead here; an account awaiting activation is told what comes next. */
const NOTICES: Record<string, { text: string; tone: "success" | "info" }> = {
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
  const name = url.searchParams.get("notice") ?? "";
  // After a registration: who activates, and whether the admins were told (only with SMTP).
  const notice =
    name === "registered"
      ? { text: registeredNotice(mailConfigured()), tone: "info" as const }
      : (NOTICES[name] ?? null);
  return {
    notice,
    redirectTo: url.searchParams.get("redirectTo") ?? "",
    // "Mit Passkey anmelden" only where some admin can use it (ADR 280).
    passkeyLogin: passkeyLoginOffered(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const login = await loginWithForm(request, clientIp(context));
  if (login.step === "code") return codeStepReply(request, login.outcome);
  if (login.step === "passkey") {
    const passkey = login.outcome;
    if (passkey.kind === "ok") throw await signedIn(request, passkey);
    return data(
      { passkeyError: passkey.message, at: Date.now() },
      {
        status: passkey.kind === "limited" ? 429 : 401,
        headers:
          passkey.kind === "limited"
            ? { "Retry-After": String(passkey.retryAfterSeconds) }
            : undefined,
      },
    );
  }
  const outcome = login.outcome;
  switch (outcome.kind) {
    case "ok":
      throw await signedIn(request, outcome);
    case "mfa":
      // The password was right; no session yet: the code step carries the challenge (ADR 256).
      return data({
        step: "code" as const,
        challenge: outcome.challenge,
        methods: outcome.methods,
        at: Date.now(),
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

/**
 * Into the back-office with the session and the known-device cookie (ADR 317); a notice of this
 * login (ADR 262) as a toast.
 */
async function signedIn(
  request: Request,
  outcome: { token: string; redirectTo: string; notice: string | null; admin: { id: number } },
) {
  const headers = new Headers();
  headers.append("Set-Cookie", await commitSessionCookie(outcome.token));
  headers.append("Set-Cookie", await knownDeviceCookie(request, outcome.admin.id));
  if (!outcome.notice) return redirect(outcome.redirectTo, { headers });
  return redirectWithToast(
    outcome.redirectTo,
    { type: "info", message: outcome.notice },
    { headers },
  );
}

/** The code step's answer: the session, the step again with its error, or back to the password. */
async function codeStepReply(request: Request, outcome: CodeStepOutcome) {
  const at = Date.now();
  switch (outcome.kind) {
    case "ok":
      throw await signedIn(request, outcome);
    case "expired":
      return data({ expired: outcome.message, at }, { status: 401 });
    case "invalid":
      return data(
        {
          step: "code" as const,
          challenge: outcome.challenge,
          methods: outcome.methods,
          codeResult: outcome.submission.reply({ hideFields: ["code"] }),
          at,
        },
        { status: 400 },
      );
    default:
      return data(
        {
          step: "code" as const,
          challenge: outcome.challenge,
          methods: outcome.methods,
          // A passkey's failure is the step's, not the code field's.
          codeResult: outcome.submission.reply({
            ...(outcome.passkey
              ? { formErrors: [outcome.message] }
              : { fieldErrors: { code: [outcome.message] } }),
            hideFields: ["code"],
          }),
          at,
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
  const submitting = navigation.state !== "idle" && navigation.formMethod === "POST";
  const checking =
    navigation.state === "loading" && navigation.location.pathname !== "/admin/login";
  if (actionData && "step" in actionData && actionData.step === "code") {
    return (
      <AccountShell
        title="Admin-Login"
        subtitle="Bestätigen Sie die Anmeldung mit Ihrem zweiten Faktor."
      >
        <LoginCodeStep
          key={actionData.challenge}
          challenge={actionData.challenge}
          methods={actionData.methods}
          result={
            "codeResult" in actionData
              ? (actionData.codeResult as Parameters<typeof useConformForm>[1])
              : undefined
          }
          at={actionData.at}
          submitting={submitting}
          checking={checking}
        />
      </AccountShell>
    );
  }
  return (
    <PasswordStep
      loaderData={loaderData}
      actionData={actionData}
      submitting={submitting}
      checking={checking}
    />
  );
}

function PasswordStep({
  loaderData,
  actionData,
  submitting,
  checking,
}: {
  loaderData: Route.ComponentProps["loaderData"];
  actionData: Route.ComponentProps["actionData"];
  submitting: boolean;
  checking: boolean;
}) {
  const timedOut = useLoginTimeout(submitting);
  const [form, fields] = useConformForm(
    LoginSchema,
    actionData && "result" in actionData
      ? (actionData.result as Parameters<typeof useConformForm>[1])
      : undefined,
  );
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
      {actionData && "expired" in actionData ? <Alert>{actionData.expired}</Alert> : null}
      {timedOut ? <Alert>{MESSAGES.loginTimeout}</Alert> : null}
      {actionData && "passkeyError" in actionData ? <Alert>{actionData.passkeyError}</Alert> : null}
      <AccountForm form={form} hidden={{ redirectTo: loaderData.redirectTo }}>
        <UsernameField meta={fields.username} />
        <PasswordField
          meta={fields.password}
          label="Passwort"
          key={`password-${actionData?.at ?? 0}`}
          autoComplete="current-password"
        />
        <AccountSubmit submitting={submitting} pending="Anmeldung läuft..." checking={checking}>
          Anmelden
        </AccountSubmit>
      </AccountForm>
      {loaderData.passkeyLogin ? (
        <PasskeyLoginButton label="Mit Passkey anmelden" redirectTo={loaderData.redirectTo} />
      ) : null}
      <AccountFooterLink to="/admin/forgot-password">Passwort vergessen?</AccountFooterLink>
    </AccountShell>
  );
}

/**
 * The spec's login time-out (15 s, with JS): a login post without an answer by then is ended — a
 * navigation to this page aborts its fetch — and "Login-Timeout: Server antwortet nicht
 * rechtzeitig" is shown until the next attempt. Without JS the browser waits as it always does.
 */
function useLoginTimeout(submitting: boolean) {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const [timedOut, setTimedOut] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new timer per attempt only
  useEffect(() => {
    if (!submitting) return;
    setTimedOut(false);
    const timer = window.setTimeout(() => {
      setTimedOut(true);
      void navigate(`${pathname}${search}`, { replace: true, preventScrollReset: true });
    }, LOGIN_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [submitting]);
  return timedOut && !submitting;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountError error={error} fallback="Login fehlgeschlagen - Ungültige Antwort vom Server" />
  );
}
