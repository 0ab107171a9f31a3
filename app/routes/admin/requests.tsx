import { useEffect, useRef } from "react";
import { Form, Link, useLocation, useRevalidator } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { ViewSwitch } from "~/components/admin/pipeline/view-switch";
import { EarlierRequests } from "~/components/admin/requests/earlier-requests";
import { FilterChips } from "~/components/admin/requests/filter-chips";
import { LeadOrigin } from "~/components/admin/requests/lead-origin";
import { ListFilters } from "~/components/admin/requests/list-filters";
import { RowBadges } from "~/components/admin/requests/new-reply-badge";
import { CsvExportLink, PrivacyActions } from "~/components/admin/requests/privacy-actions";
import {
  QuarantineActions,
  QuarantineIntro,
  QuarantineNotice,
} from "~/components/admin/requests/quarantine";
import { RequestAppointments } from "~/components/admin/requests/request-appointments";
import { type DetailContext, FullScreenRequest } from "~/components/admin/requests/request-detail";
import { RequestRow } from "~/components/admin/requests/request-row";
import { buttonClass } from "~/components/ui/button";
import { ConfirmationStep } from "~/components/ui/confirm-action";
import { Pagination } from "~/components/ui/pagination";
import { useHydrated } from "~/components/ui/use-hydrated";
import { berlinToday } from "~/lib/booking-calendar";
import { formatRequestId } from "~/lib/format";
import {
  parseRequestListQuery,
  REQUEST_TABS,
  requestListSearch,
  SEARCH_RESULT_CAP,
  TAB_LABELS,
} from "~/lib/request-list";
import { listAdmins } from "~/server/accounts/admins.server";
import { requireAdmin } from "~/server/accounts/auth.server";
import { aiConfigured } from "~/server/ai/anthropic.server";
import { visitorMailed } from "~/server/appointments/admin-changes.server";
import { goneHeldBookings } from "~/server/appointments/held-bookings.server";
import { appointmentsOfRequest } from "~/server/appointments/list.server";
import { visitorAppointments } from "~/server/appointments/visitor.server";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { parseId } from "~/server/http/http.server";
import { mailConfigured } from "~/server/mail/outbox.server";
import { pipeline } from "~/server/pipeline/config.server";
import { env } from "~/server/platform/env.server";
import { exportCandidates } from "~/server/privacy/person-export.server";
import { repliesView } from "~/server/replies/file-reply.server";
import { earlierRequestCounts, earlierRequestsOf } from "~/server/requests/duplicates.server";
import { listRequestItems } from "~/server/requests/list-items.server";
import {
  adminJsonById,
  countQuarantined,
  quarantineDays,
} from "~/server/requests/quarantine.server";
import { listAttributionSources } from "~/server/requests/queries.server";
import { aiBudget } from "~/server/spam/budgets.server";
import { transcriptionConfigured } from "~/server/transcription/client.server";
import { readListDensity } from "~/server/visitors/preferences.server";
import type { Route } from "./+types/requests";
import { handleRequestAction } from "./requests.server";

export const meta: Route.MetaFunction = () => [{ title: "Anfragen" }];

export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  const url = new URL(request.url);
  const query = parseRequestListQuery(url.searchParams);
  const openId = parseId(url.searchParams.get("requestId") ?? undefined);
  const expandId = parseId(url.searchParams.get("expand") ?? undefined);
  const page = listRequestItems(query, admin.id);
  const ids = page.items.map((r) => r.id);
  const open = openId ? adminJsonById(openId) : null;
  const openAppointments = open ? appointmentsOfRequest(open.id) : [];
  return {
    openAppointments,
    openMailedIds: openAppointments.filter((a) => visitorMailed(a.id)).map((a) => a.id),
    query,
    page,
    // A booked demo, else a held booking whose slot was gone at the release (ADR 355).
    demos: Object.fromEntries([
      ...[...goneHeldBookings(ids)].map(([id, d]) => [id, { ...d, gone: true }] as const),
      ...visitorAppointments(ids),
    ]),
    earlierCounts: Object.fromEntries(earlierRequestCounts(ids)),
    earlier: openId ? earlierRequestsOf(openId) : [],
    exportCandidates: openId ? exportCandidates(openId) : [],
    open,
    openId,
    openQuarantined: open?.quarantined ?? false,
    // "Prüfen (n)" (ADR 252): the quarantine's size, from its partial index.
    quarantine: { count: countQuarantined(), days: quarantineDays() },
    focusHeading: url.searchParams.get("focus") === "heading",
    // A deleted or unknown request asked for by its link: a notice instead of the view.
    missingId: openId && !open ? openId : null,
    density: await readListDensity(request),
    // Without JS the expand link asks for one row's details (`?expand=`); with JS rows fetch them.
    expanded:
      expandId && page.items.some((r) => r.id === expandId) ? adminJsonById(expandId) : null,
    sources: listAttributionSources(),
    admins: listAdmins().map((a) => ({ id: a.id, username: a.username, is_active: a.is_active })),
    fields: getConfiguration().preparationFields,
    aiConfigured: aiConfigured(),
    // Today's AI calls are used up: missing summaries follow tomorrow (ADR 255).
    summaryHeld: aiConfigured() && aiBudget().exhausted,
    origin: env().APP_URL,
    transcriptionConfigured: transcriptionConfigured(),
    mailConfigured: mailConfigured(),
    replies: repliesView(openId, ids),
    pipeline: { stages: pipeline().stages, lostReasons: pipeline().lostReasons },
    now: new Date().toISOString(),
    adminId: admin.id,
    today: berlinToday(),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return handleRequestAction(request, admin);
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export default function RequestsPage({ loaderData, actionData }: Route.ComponentProps) {
  const { query, page, open, missingId, admins, fields, origin } = loaderData;
  const compact = loaderData.density === "compact";
  const ctx: DetailContext = {
    admins,
    fields,
    aiConfigured: loaderData.aiConfigured,
    summaryHeld: loaderData.summaryHeld,
    origin,
    transcriptionConfigured: loaderData.transcriptionConfigured,
    mailConfigured: loaderData.mailConfigured,
    repliesConfigured: loaderData.replies.configured,
    pipeline: loaderData.pipeline,
    now: loaderData.now,
    adminId: loaderData.adminId,
    today: loaderData.today,
  };
  const location = useLocation();
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const listSearch = requestListSearch(query);
  const closeHref = `/admin/requests${listSearch}`;
  const openHref = (id: number) =>
    `/admin/requests${requestListSearch(query, { requestId: String(id) })}`;
  const actionUrl = `${location.pathname}${location.search}`;
  const rowHref = (id: number, expand: boolean) =>
    `/admin/requests${requestListSearch(query, expand ? { expand: String(id) } : {})}#request-${id}`;
  const inQuarantine = query.tab === "quarantine";
  // After a release or deletion in "Prüfen" the heading with the new count takes the focus (the
  // server-rendered autoFocus without JS; this effect after a client-side navigation).
  const heading = useRef<HTMLHeadingElement>(null);
  const { focusHeading } = loaderData;
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per navigation (location.key)
  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading, location.key]);

  return (
    <div className="space-y-5">
      {missingId ? <MissingRequest id={missingId} closeHref={closeHref} /> : null}
      {open ? null : <ConfirmationStep data={actionData} action={actionUrl} />}
      {/* "Liste | Board" beside the tabs (ADR 347), one line from the desktop: a line of its own
          pushed the third row of the list below an 800 px screen (ADR 236). */}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-3">
        <ViewSwitch current="list" />
        <nav aria-label="Ansichten" className="flex flex-wrap gap-2">
          {REQUEST_TABS.map((tab) => (
            <Link
              key={tab}
              to={requestListSearch({ tab })}
              aria-current={query.tab === tab ? "page" : undefined}
              className={buttonClass(query.tab === tab ? "primary" : "secondary", "sm")}
            >
              {tab === "quarantine"
                ? `${TAB_LABELS[tab]} (${loaderData.quarantine.count})`
                : TAB_LABELS[tab]}
            </Link>
          ))}
        </nav>
      </div>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1
          ref={heading}
          className="text-2xl font-bold outline-none"
          tabIndex={-1}
          autoFocus={focusHeading}
        >
          {TAB_LABELS[query.tab]}{" "}
          <span className="text-slate-500 dark:text-slate-400">
            ({page.totalIsCapped ? `mehr als ${SEARCH_RESULT_CAP} Treffer` : page.total})
          </span>
        </h1>
        <div className="flex flex-wrap items-center gap-2">
          {/* The list as it is shown (applied filters), in view on a phone too: the filter panel
              is folded there. */}
          <CsvExportLink query={query} />
          <Form method="post" action={actionUrl}>
            <input type="hidden" name="intent" value="density" />
            <input type="hidden" name="density" value={compact ? "comfortable" : "compact"} />
            <button
              type="submit"
              className={buttonClass(compact ? "primary" : "secondary", "sm")}
              aria-pressed={compact}
            >
              Kompakte Ansicht
            </button>
          </Form>
          {hydrated ? (
            <button
              type="button"
              className={buttonClass("secondary", "sm")}
              onClick={() => revalidator.revalidate()}
              disabled={revalidator.state !== "idle"}
            >
              {revalidator.state !== "idle" ? "Lädt …" : "Neu laden"}
            </button>
          ) : (
            <Link
              to={`/admin/requests${listSearch}`}
              className={buttonClass("secondary", "sm")}
              reloadDocument
            >
              Neu laden
            </Link>
          )}
        </div>
      </div>
      {query.tab === "quarantine" && page.total !== loaderData.quarantine.count ? (
        // The tab counts the whole quarantine, the heading the search's hits: say which is which.
        <p
          className="-mt-2 text-sm text-slate-600 dark:text-slate-300"
          data-testid="quarantine-hits"
        >
          {page.total} von {loaderData.quarantine.count} Anfragen in „Prüfen“ passen zu Suche und
          Filtern.
        </p>
      ) : null}
      <ListFilters query={query} sources={loaderData.sources} stages={loaderData.pipeline.stages} />
      <FilterChips query={query} stages={loaderData.pipeline.stages} />
      {inQuarantine ? <QuarantineIntro days={loaderData.quarantine.days} /> : null}

      {page.items.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:text-slate-400 dark:border-slate-700">
          Keine Anfragen gefunden.
        </p>
      ) : (
        <ul className={compact ? "space-y-1" : "space-y-2"} data-density={loaderData.density}>
          {page.items.map((request) => (
            <RequestRow
              key={request.id}
              request={request}
              ctx={ctx}
              actionUrl={actionUrl}
              openHref={openHref(request.id)}
              expanded={loaderData.expanded?.id === request.id ? loaderData.expanded : null}
              expandHref={rowHref(request.id, true)}
              collapseHref={rowHref(request.id, false)}
              demo={loaderData.demos[request.id] ?? null}
              badge={<RowBadges id={request.id} {...loaderData} />}
              actions={
                inQuarantine ? (
                  <QuarantineActions id={request.id} name={request.name} action={actionUrl} />
                ) : null
              }
              compact={compact}
              stageAnswers={!open}
            />
          ))}
        </ul>
      )}
      <Pagination
        page={page.page}
        totalPages={page.totalPages}
        text={`Zeige ${(page.page - 1) * page.pageSize + 1} bis ${Math.min(page.total, page.page * page.pageSize)} von ${page.totalIsCapped ? `mehr als ${SEARCH_RESULT_CAP} Treffern` : `${page.total} Anfragen`}`}
        hrefFor={(p) => `/admin/requests${requestListSearch({ ...query, page: p })}`}
      />

      {open ? (
        <FullScreenRequest request={open} ctx={ctx} closeHref={closeHref}>
          <ConfirmationStep data={actionData} action={actionUrl} />
          {loaderData.openQuarantined ? (
            <QuarantineNotice id={open.id} name={open.name} action={actionUrl} />
          ) : null}
          <PrivacyActions
            request={open}
            action={actionUrl}
            candidates={loaderData.exportCandidates}
          />
          <RequestAppointments
            appointments={loaderData.openAppointments}
            mailedIds={loaderData.openMailedIds}
          />
          <EarlierRequests items={loaderData.earlier} hrefFor={openHref} />
          <LeadOrigin attribution={open.attribution} />
        </FullScreenRequest>
      ) : null}
    </div>
  );
}

/**
 * `?requestId=` of a deleted or unknown request (an old link, a mail, another admin deleted it): said
 * at the top of the list, where the view would have opened, instead of the list without a word.
 */
function MissingRequest({ id, closeHref }: { id: number; closeHref: string }) {
  return (
    <div
      role="alert"
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
      data-missing-request=""
    >
      <p>
        <strong>Anfrage #{formatRequestId(id)} gibt es nicht (mehr).</strong> Sie wurde gelöscht
        oder der Link ist falsch. Hier ist die Liste der Anfragen.
      </p>
      <Link to={closeHref} className={buttonClass("secondary", "sm")}>
        Hinweis schließen
      </Link>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Abrufen der Requests" />;
}
