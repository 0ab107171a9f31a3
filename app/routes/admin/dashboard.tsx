import { data, Link } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { BusyFeedWarning } from "~/components/admin/dashboard/busy-feed-warning";
import { CaldavWarningCard } from "~/components/admin/dashboard/caldav-warning";
import { ConversionCharts } from "~/components/admin/dashboard/conversion-charts";
import { PromisesCard } from "~/components/admin/dashboard/promises-card";
import { SetupCheckCard } from "~/components/admin/dashboard/setup-check-card";
import { TasksCard } from "~/components/admin/dashboard/tasks-card";
import { TodayCard } from "~/components/admin/dashboard/today-card";
import { StatusBadge } from "~/components/admin/requests/status-badge";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { adminCountNote } from "~/lib/activation-notice";
import { formatDateTime, formatRequestId, summaryOf } from "~/lib/format";
import { heldSummary, QUARANTINE_HREF } from "~/lib/held-requests";
import { requireAdmin } from "~/server/accounts/auth.server";
import { caldavWarnings } from "~/server/caldav/connections.server";
import { conversionStats } from "~/server/dashboard/conversion.server";
import { sendTestMail, setupCheck } from "~/server/dashboard/setup-check.server";
import { digestFor } from "~/server/digest/digest.server";
import { taskCounts } from "~/server/follow-ups/follow-ups.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { readForm } from "~/server/http/http.server";
import { mailConfigured } from "~/server/mail/outbox.server";
import { promiseStats } from "~/server/pipeline/promises.server";
import { getStats, latestRequests } from "~/server/requests/queries.server";
import { busyFeedStatuses } from "~/server/team-calendar/busy-feeds.server";
import type { Route } from "./+types/dashboard";

export const meta: Route.MetaFunction = () => [{ title: "Übersicht" }];

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  return {
    stats: getStats(),
    latest: latestRequests(10),
    conversion: conversionStats(),
    promises: promiseStats(),
    setup: setupCheck(admin),
    // A team calendar that cannot be fetched keeps its last busy times; admins should know.
    downFeeds: busyFeedStatuses().filter((f) => f.lastError),
    // A CalDAV calendar in trouble (ADR 337): its last known busy times keep counting.
    caldav: caldavWarnings(),
    // "Meine Aufgaben" and, without SMTP, the morning digest as the "Heute" card (ADRs 351, 352).
    tasks: taskCounts(admin.id),
    digest: mailConfigured() ? null : digestFor(admin),
  };
}

/** "Test-E-Mail senden" of the go-live check (a real form: works without JavaScript). */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  if (form.get("intent") !== "test-mail") {
    return data({ error: "Unbekannte Aktion." }, { status: 400 });
  }
  const sent = await sendTestMail(admin);
  throw await redirectWithToast("/admin/dashboard", {
    type: !sent.ok ? "error" : sent.mailed ? "success" : "info",
    message: sent.ok ? sent.message : sent.error,
  });
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { stats, latest } = loaderData;
  const held = stats.quarantinedRequests;
  const cards = [
    { label: "Anfragen gesamt", value: stats.totalRequests, to: "/admin/requests" },
    { label: "Neue Anfragen", value: stats.newRequests, to: "/admin/requests?status=New" },
    // Held requests count here only (ADR 327): the cards above leave them out.
    { label: "Zur Prüfung", value: held, to: QUARANTINE_HREF, alert: held > 0 },
    // Every account, as "Benutzer" and /admin/legacy count them; the note says who may log in.
    { label: "Admins", value: stats.admins, to: "/admin/users", note: adminCountNote(stats) },
    { label: "Offene Einladungen", value: stats.pendingInvitations, to: "/admin/users" },
  ];
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold">Übersicht</h1>
      {loaderData.setup.ready ? null : <SetupCheckCard check={loaderData.setup} />}
      <BusyFeedWarning feeds={loaderData.downFeeds} />
      <CaldavWarningCard warnings={loaderData.caldav} />
      <TasksCard counts={loaderData.tasks} />
      {loaderData.digest ? <TodayCard digest={loaderData.digest} /> : null}
      <section aria-label="Kennzahlen" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
        {cards.map((card) => (
          <Link key={card.label} to={card.to} className="block rounded-xl focus-visible:outline-2">
            <Card
              className={`h-full p-5 transition hover:shadow-md ${"alert" in card && card.alert ? "border-amber-400! dark:border-amber-600!" : ""}`}
            >
              <p className="text-sm text-slate-500 dark:text-slate-400">{card.label}</p>
              <p className="mt-1 text-3xl font-bold">{card.value}</p>
              {"alert" in card && card.alert ? (
                <p className="mt-1 text-sm font-medium text-amber-800 dark:text-amber-200">
                  warten auf Freigabe
                </p>
              ) : null}
              {"note" in card && card.note ? (
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{card.note}</p>
              ) : null}
            </Card>
          </Link>
        ))}
      </section>
      <PromisesCard stats={loaderData.promises} />
      <ConversionCharts stats={loaderData.conversion} />
      <section aria-labelledby="latest-heading" className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="latest-heading" className="text-lg font-semibold">
            Neuste Anfragen
          </h2>
          <Link to="/admin/requests" className={buttonClass("secondary", "sm")}>
            Alle Anfragen anzeigen
          </Link>
        </div>
        {latest.length || held ? (
          <Card className="divide-y divide-slate-200 dark:divide-slate-800">
            {held ? (
              // One row for all of them, so a spam wave cannot fill the list (ADR 327).
              <Link
                to={QUARANTINE_HREF}
                data-testid="held-summary-row"
                className="flex flex-wrap items-center gap-3 bg-amber-50 p-4 hover:bg-amber-100 dark:bg-amber-950/40 dark:hover:bg-amber-950/70"
              >
                <span className="min-w-0 flex-1">
                  <span className="block font-medium">{heldSummary(held)}</span>
                  <span className="block text-sm text-slate-700 dark:text-slate-300">
                    Ohne gültigen Spam-Schutz oder von der Sperrliste – bitte freigeben oder
                    löschen.
                  </span>
                </span>
                <span className="text-sm font-medium text-amber-900 underline underline-offset-2 dark:text-amber-200">
                  Prüfen
                </span>
              </Link>
            ) : null}
            {latest.map((r) => (
              <Link
                key={r.id}
                to={`/admin/requests?requestId=${r.id}`}
                className="flex flex-wrap items-center gap-3 p-4 hover:bg-slate-50 dark:hover:bg-slate-800/50"
              >
                <span className="font-mono text-sm text-slate-500 dark:text-slate-400">
                  #{formatRequestId(r.id)}
                </span>
                <span className="min-w-0 flex-1">
                  <span className="block font-medium">{r.name}</span>
                  <span className="block truncate text-sm text-slate-600 dark:text-slate-300">
                    {summaryOf(r)}
                  </span>
                </span>
                <StatusBadge status={r.status} />
                <span className="text-sm text-slate-500 dark:text-slate-400">
                  {formatDateTime(r.createdAt)}
                </span>
              </Link>
            ))}
          </Card>
        ) : (
          <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:text-slate-400 dark:border-slate-700">
            Noch keine Anfragen eingegangen.
          </p>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Abrufen der Statistiken" />;
}
