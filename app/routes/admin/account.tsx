import { parseWithZod } from "@conform-to/zod/v4";
import { data, Link, useNavigation } from "react-router";
import { AccountSection } from "~/components/admin/account/account-section";
import { ApiTokensSection } from "~/components/admin/account/api-tokens-section";
import { CalendarSection } from "~/components/admin/account/calendar-section";
import { DigestAbsenceSection } from "~/components/admin/account/digest-absence-section";
import { PasskeysSection } from "~/components/admin/account/passkeys-section";
import { SecuritySection } from "~/components/admin/account/security-section";
import { SessionsList } from "~/components/admin/account/sessions-list";
import { AccountError } from "~/components/admin/account-error";
import { EmailField, UsernameField } from "~/components/admin/account-fields";
import { StepUpStep } from "~/components/admin/step-up-step";
import { Button, buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { ConformForm, Field, useConformForm } from "~/components/ui/form";
import { AccountSchema } from "~/lib/account-form";
import { isDeliverableAddress } from "~/lib/mail-address";
import { updateAccount } from "~/server/accounts/account.server";
import { listApiTokens } from "~/server/accounts/api-tokens/api-tokens.server";
import { requireAdmin } from "~/server/accounts/auth.server";
import { passkeyStatus } from "~/server/accounts/passkeys/passkeys.server";
import { listSessions } from "~/server/accounts/sessions.server";
import { twoFactorStatus } from "~/server/accounts/two-factor/two-factor.server";
import { workSettingsOf } from "~/server/accounts/work-settings.server";
import { calendarConnectionView } from "~/server/caldav/connections.server";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { readForm } from "~/server/http/http.server";
import { mailConfigured } from "~/server/mail/outbox.server";
import { env } from "~/server/platform/env.server";
import { failureReply } from "~/server/platform/result.server";
import type { Route } from "./+types/account";
import {
  ENROLLMENT_INTENTS,
  enrollmentFirst,
  handleAccessIntent,
  handlePasskeyIntent,
  handleSecurityIntent,
} from "./account.server";
import { handleCalendarIntent } from "./account-calendar.server";
import { handleWorkSettingsIntent } from "./account-work.server";

export const meta: Route.MetaFunction = () => [{ title: "Account-Einstellungen" }];

export async function loader({ request }: Route.LoaderArgs) {
  // Open while the 2FA rule still asks for the enrolment: it happens here.
  const admin = await requireAdmin(request, { allowPendingEnrollment: true });
  return {
    username: admin.username,
    email: admin.email,
    reachable: isDeliverableAddress(admin.email),
    mailOn: mailConfigured(),
    security: {
      ...(await twoFactorStatus(admin.id)),
      enrollmentRequired: admin.mfaEnrollmentRequired,
      requireForAll: getConfiguration().security.requireTwoFactor,
    },
    passkeys: passkeyStatus(admin.id),
    sessions: listSessions(admin),
    idleHours: env().SESSION_IDLE_HOURS,
    apiTokens: listApiTokens(admin.id),
    calendar: calendarConnectionView(admin.id),
    work: workSettingsOf(admin.id),
  };
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request, { allowPendingEnrollment: true });
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  // While the 2FA rule asks for the enrolment, only the enrolment is open (ADR 256).
  if (admin.mfaEnrollmentRequired && !ENROLLMENT_INTENTS.includes(intent)) return enrollmentFirst();
  if (intent.startsWith("2fa-")) return handleSecurityIntent(intent, form, admin);
  if (/^(session|api-token)/.test(intent)) return handleAccessIntent(intent, form, admin);
  if (intent.startsWith("passkey-")) return handlePasskeyIntent(intent, form, admin);
  if (intent.startsWith("calendar-")) return handleCalendarIntent(intent, form, admin);
  if (intent === "work-settings") return handleWorkSettingsIntent(form, admin);
  const submission = parseWithZod(form, { schema: AccountSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply(), notice: null }, { status: 400 });
  }
  const result = await updateAccount(admin.id, submission.value);
  if (!result.ok) {
    return data(
      { result: failureReply(submission, result), notice: null },
      { status: result.status },
    );
  }
  return data(
    {
      result: submission.reply({ resetForm: true }),
      notice: { pending: result.status === 202, message: result.message },
    },
    { status: result.status === 202 ? 202 : 200 },
  );
}

export default function Account({ loaderData, actionData: answer }: Route.ComponentProps) {
  const { username, email, reachable, mailOn } = loaderData;
  // A no-JS confirmation step ("Widerrufen" of an API token) goes to its section only; the
  // step-up (a change of the 2FA rule, ADR 315) is a step of its own.
  const actionData =
    answer && ("confirmation" in answer || "stepUp" in answer) ? undefined : answer;
  const security = actionData && "security" in actionData ? actionData.security : undefined;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Account-Einstellungen</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">Angemeldet als {username}</p>
      </div>
      <StepUpStep data={answer} />
      {reachable ? null : (
        <Alert tone="warning">
          An Ihre E-Mail-Adresse <strong>{email}</strong> kann nichts zugestellt werden. Bitte
          hinterlegen Sie Ihre eigene Adresse – sonst erreichen Sie weder Benachrichtigungen über
          neue Anfragen noch Links zum Zurücksetzen Ihres Passworts.
        </Alert>
      )}
      {actionData?.notice ? (
        <Alert tone={actionData.notice.pending ? "info" : "success"}>
          {actionData.notice.message}
        </Alert>
      ) : null}
      {/* Re-mounted when the stored values change, so the fields show what is saved. */}
      <ProfileSection
        key={`${username}\u0000${email}`}
        username={username}
        email={email}
        mailOn={mailOn}
        result={actionData?.result}
      />
      <AccountSection
        id="passwort"
        title="Passwort"
        description="Nach der Änderung werden Ihre anderen Sitzungen abgemeldet."
      >
        <Link to="/admin/change-password" className={buttonClass("secondary")}>
          Passwort ändern
        </Link>
      </AccountSection>
      <SecuritySection
        status={loaderData.security}
        reply={security?.intent.startsWith("2fa-") ? security : undefined}
      >
        <PasskeysSection
          passkeys={loaderData.passkeys.list}
          loginAllowed={loaderData.passkeys.loginAllowed}
          hasTotp={loaderData.security.enabled}
          reply={security?.intent.startsWith("passkey-") ? security : undefined}
        />
        <SessionsList
          sessions={loaderData.sessions}
          idleHours={loaderData.idleHours}
          reply={security?.intent.startsWith("session") ? security : undefined}
        />
      </SecuritySection>
      <DigestAbsenceSection
        settings={loaderData.work}
        mailOn={mailOn}
        reply={actionData && "work" in actionData ? actionData.work : undefined}
      />
      <CalendarSection
        view={loaderData.calendar}
        reply={actionData && "calendar" in actionData ? actionData.calendar : undefined}
      />
      <ApiTokensSection
        tokens={loaderData.apiTokens}
        twoFactorEnabled={loaderData.security.enabled}
        reply={actionData && "access" in actionData ? actionData.access : undefined}
        confirmation={answer}
      />
    </div>
  );
}

function ProfileSection({
  username,
  email,
  mailOn,
  result,
}: {
  username: string;
  email: string;
  mailOn: boolean;
  result: Parameters<typeof useConformForm>[1];
}) {
  const navigation = useNavigation();
  const [form, fields] = useConformForm(AccountSchema, result, {
    id: "profile",
    defaultValue: { username, email },
  });
  const submitting = navigation.state === "submitting";
  return (
    <AccountSection
      id="profil"
      title="Profil"
      description="Ihr Benutzername für die Anmeldung und die Adresse für Benachrichtigungen."
    >
      <ConformForm form={form}>
        <UsernameField meta={fields.username} />
        <EmailField
          meta={fields.email}
          hint={
            mailOn
              ? "Eine neue Adresse gilt, sobald Sie den Link in der Bestätigungs-E-Mail an diese Adresse geöffnet haben. Ihre bisherige Adresse wird informiert."
              : "Ohne E-Mail-Versand gilt eine neue Adresse sofort."
          }
        />
        <Field
          meta={fields.currentPassword}
          label="Aktuelles Passwort"
          type="password"
          autoComplete="current-password"
          hint="Nur nötig, wenn Sie die E-Mail-Adresse ändern."
        />
        <Button type="submit" disabled={submitting}>
          {submitting ? "Wird gespeichert..." : "Änderungen speichern"}
        </Button>
      </ConformForm>
    </AccountSection>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountError
      error={error}
      fallback="Account-Einstellungen konnten nicht geladen werden."
      back="dashboard"
    />
  );
}
