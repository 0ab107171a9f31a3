import { data, Link } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { BusyFeedWarning } from "~/components/admin/dashboard/busy-feed-warning";
import { ConversionCharts } from "~/components/admin/dashboard/conversion-charts";
import { SetupCheckCard } from "~/components/admin/dashboard/setup-check-card";
import { StatusBadge } from "~/components/admin/requests/status-badge";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { adminCountNote } from "~/lib/activation-notice";
import { formatDateTime, formatRequestId, summaryOf } from "~/lib/format";
import { requireAdmin } from "~/server/accounts/auth.server";
import { conversionStats } from "~/server/dashboard/conversion.server";
import { sendTestMail, setupCheck } from "~/server/dashboard/setup-check.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { readForm } from "~/server/http/http.server";
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
    setup: setupCheck(admin),
    // A team calendar that cannot be fetched keeps its last busy times; admins should know.
    downFeeds: busyFeedStatuses().filter((f) => f.lastError),
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
  const cards = [
    { label: "Anfragen gesamt", value: stats.totalRequests, to: "/admin/requests" },
    { label: "Neue Anfragen", value: stats.newRequests, to: "/admin/requests?status=New" },
    // Every account, as "Benutzer" and /admin/legacy count them; the note says who may log in.
    { label: "Admins", value: stats.admins, to: "/admin/users", note: adminCountNote(stats) },
    { label: "Offene Einladungen", value: stats.pendingInvitations, to: "/admin/users" },
  ];
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-bold">Übersicht</h1>
      {loaderData.setup.ready ? null : <SetupCheckCard check={loaderData.setup} />}
      <BusyFeedWarning feeds={loaderData.downFeeds} />
      <section aria-label="Kennzahlen" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {cards.map((card) => (
          <Link key={card.label} to={card.to} className="block rounded-xl focus-visible:outline-2">
            <Card className="p-5 transition hover:shadow-md">
              <p className="text-sm text-slate-500 dark:text-slate-400">{card.label}</p>
              <p className="mt-1 text-3xl font-bold">{card.value}</p>
              {"note" in card && card.note ? (
                <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{card.note}</p>
              ) : null}
            </Card>
          </Link>
        ))}
      </section>
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
        {latest.length ? (
          <Card className="divide-y divide-slate-200 dark:divide-slate-800">
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
