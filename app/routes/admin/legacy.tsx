import { Link, useLocation } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { AffiliatePanel } from "~/components/admin/affiliates/affiliate-panel";
import { SettingsForm } from "~/components/admin/settings/settings-form";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { adminCountNote } from "~/lib/activation-notice";
import { listAdmins } from "~/server/accounts/admins.server";
import { requireAdmin } from "~/server/accounts/auth.server";
import { eventTypesWithFallback } from "~/server/appointments/appointments.server";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { readForm } from "~/server/http/http.server";
import { getStats } from "~/server/requests/queries.server";
import { busyFeedStatuses } from "~/server/team-calendar/busy-feeds.server";
import { maskedConfiguration } from "~/server/webhooks/config.server";
import type { Route } from "./+types/legacy";
import { affiliatePanelData, handleAffiliateAction } from "./affiliate-codes.server";
import { handleSettingsAction, type SettingsActionData } from "./settings.server";

export const meta: Route.MetaFunction = () => [{ title: "Admin-Panel (klassisch)" }];

/** The older combined panel: stats, affiliate codes and configuration — the same parts as the new pages. */
export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return {
    stats: getStats(),
    ...affiliatePanelData(),
    config: maskedConfiguration(getConfiguration()),
    busyFeeds: busyFeedStatuses(),
    admins: listAdmins().map((a) => ({ id: a.id, username: a.username, email: a.email })),
    eventTypes: (await eventTypesWithFallback()).map((e) => ({
      key: e.key,
      title: e.title,
      lengthInMinutes: e.lengthInMinutes,
    })),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  if (["create", "toggle", "delete"].includes(intent))
    return handleAffiliateAction(form, "/admin/legacy", admin);
  return handleSettingsAction(form, "/admin/legacy", { request, context, actor: admin });
}

export default function LegacyPanel({ loaderData, actionData }: Route.ComponentProps) {
  const location = useLocation();
  const { stats } = loaderData;
  const settings =
    actionData && "settings" in (actionData as object)
      ? (actionData as SettingsActionData)
      : undefined;
  return (
    <div className="space-y-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Admin-Panel (klassisch)</h1>
        <Link to="/admin/dashboard" className={buttonClass("secondary", "sm")}>
          Zur neuen Übersicht
        </Link>
      </div>
      <section aria-labelledby="legacy-stats" className="space-y-3">
        <h2 id="legacy-stats" className="text-lg font-semibold">
          Statistiken
        </h2>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {[
            ["Anfragen gesamt", stats.totalRequests, ""],
            ["Neue Anfragen", stats.newRequests, ""],
            ["Archiviert", stats.archivedRequests, ""],
            // The same count and note as the dashboard's card.
            ["Admins", stats.admins, adminCountNote(stats)],
          ].map(([label, value, note]) => (
            <Card key={label} className="p-4">
              <p className="text-sm text-slate-500 dark:text-slate-400">{label}</p>
              <p className="text-2xl font-bold">{value}</p>
              {note ? <p className="text-sm text-slate-600 dark:text-slate-300">{note}</p> : null}
            </Card>
          ))}
        </div>
      </section>
      <section aria-labelledby="legacy-affiliates" className="space-y-3">
        <h2 id="legacy-affiliates" className="text-lg font-semibold">
          Affiliate Codes ({loaderData.codes.length})
        </h2>
        <AffiliatePanel
          codes={loaderData.codes}
          origin={loaderData.origin}
          actionData={actionData}
        />
      </section>
      <section aria-labelledby="legacy-config" className="space-y-3">
        <h2 id="legacy-config" className="text-lg font-semibold">
          Konfiguration
        </h2>
        <SettingsForm
          config={loaderData.config}
          lastResult={settings?.settings}
          admins={loaderData.admins}
          eventTypes={loaderData.eventTypes}
          action={location.pathname}
          error={settings?.error}
          message={settings?.message}
          focus={settings?.focus}
          busyFeeds={loaderData.busyFeeds}
        />
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Abrufen der Statistiken" />;
}
