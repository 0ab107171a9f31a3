import { Link, useLocation } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { LoginSecurityPointer } from "~/components/admin/settings/login-security-pointer";
import { LogoSettings } from "~/components/admin/settings/logo-settings";
import { SettingsForm } from "~/components/admin/settings/settings-form";
import {
  SETTINGS_INDEX_ID,
  SettingsIndex,
  SettingsIndexProvider,
} from "~/components/admin/settings/settings-index";
import { TeamCalendarLinks } from "~/components/admin/settings/team-calendar-links";
import { WebhookSettings } from "~/components/admin/settings/webhook-settings";
import { buttonClass } from "~/components/ui/button";
import type { TeamCalendarFormState } from "~/lib/team-calendar";
import type { WebhookFormState } from "~/lib/webhooks";
import { countFeedback } from "~/server/accessibility/feedback.server";
import { listAdmins } from "~/server/accounts/admins.server";
import { requireAdmin } from "~/server/accounts/auth.server";
import { eventTypesWithFallback } from "~/server/appointments/appointments.server";
import { branding } from "~/server/branding/branding.server";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { readForm } from "~/server/http/http.server";
import { env } from "~/server/platform/env.server";
import { busyFeedStatuses } from "~/server/team-calendar/busy-feeds.server";
import { listFeedTokens } from "~/server/team-calendar/demo-feed.server";
import {
  handleTeamCalendarAction,
  isTeamCalendarIntent,
} from "~/server/team-calendar/settings-actions.server";
import { maskedConfiguration } from "~/server/webhooks/config.server";
import {
  generateWebhookSecret,
  handleWebhookAction,
  isWebhookIntent,
} from "~/server/webhooks/settings-actions.server";
import type { Route } from "./+types/settings";
import { handleSettingsAction, type SettingsActionData } from "./settings.server";
import { handleLogoAction, isLogoIntent } from "./settings-logo.server";

export const meta: Route.MetaFunction = () => [{ title: "Einstellungen" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const eventTypes = (await eventTypesWithFallback()).map((e) => ({
    key: e.key,
    title: e.title,
    lengthInMinutes: e.lengthInMinutes,
  }));
  return {
    config: maskedConfiguration(getConfiguration()),
    admins: listAdmins().map((a) => ({ id: a.id, username: a.username, email: a.email })),
    eventTypes,
    generatedSecret: generateWebhookSecret(),
    legalDefaults: { privacyUrl: env().PRIVACY_URL, imprintUrl: env().IMPRINT_URL },
    appUrl: env().APP_URL,
    logoUrl: branding().logoUrl,
    teamCalendar: { feeds: busyFeedStatuses(), links: listFeedTokens() },
    requireTwoFactor: getConfiguration().security.requireTwoFactor,
    accessibilityFeedback: { total: countFeedback() },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  if (isWebhookIntent(form)) return handleWebhookAction(form, "/admin/settings", admin);
  if (isLogoIntent(form)) return handleLogoAction(form, "/admin/settings#branding-logo");
  if (isTeamCalendarIntent(form)) return handleTeamCalendarAction(form, "/admin/settings", admin);
  return handleSettingsAction(form, "/admin/settings", { request, context, actor: admin });
}

export default function SettingsPage({ loaderData, actionData }: Route.ComponentProps) {
  const location = useLocation();
  const result = actionData as SettingsActionData | undefined;
  return (
    <SettingsIndexProvider>
      <div className="space-y-5">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h1 className="text-2xl font-bold">System-Konfiguration</h1>
          <div className="flex flex-wrap gap-2">
            {/* The index is at the end of the page below 1024 px: one step away from here. */}
            <a
              href={`#${SETTINGS_INDEX_ID}`}
              className={`${buttonClass("secondary", "sm")} lg:hidden`}
            >
              Abschnitte
            </a>
            <Link to="/admin/audit" className={buttonClass("secondary", "sm")}>
              Protokoll
            </Link>
            <Link to="/admin/settings/outbox" className={buttonClass("secondary", "sm")}>
              Postausgang (E-Mails)
            </Link>
          </div>
        </div>
        {/* From 1024 px the index stays beside the cards (sticky); below, it follows them. */}
        <div className="lg:grid lg:grid-cols-[minmax(0,1fr)_14rem] lg:items-start lg:gap-6">
          <div className="min-w-0 space-y-5">
            <LoginSecurityPointer requireTwoFactor={loaderData.requireTwoFactor} />
            <SettingsForm
              config={loaderData.config}
              lastResult={result?.settings}
              admins={loaderData.admins}
              eventTypes={loaderData.eventTypes}
              action={location.pathname}
              error={result?.error}
              message={result?.message}
              focus={result?.focus}
              legalDefaults={loaderData.legalDefaults}
              appUrl={loaderData.appUrl}
              busyFeeds={loaderData.teamCalendar.feeds}
              feedsRefreshable
              accessibilityFeedback={loaderData.accessibilityFeedback}
            />
            <LogoSettings logoUrl={loaderData.logoUrl} action={location.pathname} />
            <WebhookSettings
              webhooks={loaderData.config.webhooks}
              generatedSecret={loaderData.generatedSecret}
              action={location.pathname}
              state={(actionData as { webhook?: WebhookFormState } | undefined)?.webhook}
            />
            <TeamCalendarLinks
              action={location.pathname}
              links={loaderData.teamCalendar.links}
              newLink={
                (actionData as { teamCalendar?: TeamCalendarFormState } | undefined)?.teamCalendar
                  ?.feedLink
              }
            />
          </div>
          <SettingsIndex className="mt-5 lg:sticky lg:top-4 lg:mt-0 lg:max-h-[calc(100vh-2rem)] lg:overflow-y-auto" />
        </div>
      </div>
    </SettingsIndexProvider>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Abrufen der Konfiguration" />;
}
