import { Form } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { AppointmentCard } from "~/components/admin/appointments/appointment-card";
import { Button } from "~/components/ui/button";
import { CheckboxGroup } from "~/components/ui/checkbox-group";
import { Alert, inputClass } from "~/components/ui/field";
import { FilterSelect, labelled } from "~/components/ui/filter-select";
import { Pagination } from "~/components/ui/pagination";
import {
  filterGroups,
  filterIsAll,
  STATUS_GROUP_LABELS,
  STATUS_GROUPS,
} from "~/lib/appointment-status";
import {
  APPOINTMENT_SORT_LABELS,
  APPOINTMENT_SORTS,
  type AppointmentJson,
  emptyMessage,
  paginationText,
  readAppointmentQuery,
  statusFilterLabel,
  TIME_FILTER_LABELS,
  TIME_FILTERS,
} from "~/lib/appointments";
import { backTo, requireAdmin } from "~/server/accounts/auth.server";
import { visitorMailed } from "~/server/appointments/admin-changes.server";
import { listAppointments } from "~/server/appointments/list.server";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { parseId, readForm } from "~/server/http/http.server";
import type { Route } from "./+types/appointments";
import { handleCardForm } from "./appointments.server";

export const meta: Route.MetaFunction = () => [{ title: "Termine" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const query = readAppointmentQuery(new URL(request.url).searchParams);
  const bookingEnabled = Boolean(getConfiguration().appointmentEventType);
  try {
    const list = listAppointments(query);
    return {
      query,
      bookingEnabled,
      loadError: null,
      ...list,
      // The cards whose changes reach the visitor by mail (SMTP, a request not held back).
      mailedIds: list.appointments.filter((a) => visitorMailed(a.id)).map((a) => a.id),
    };
  } catch (error) {
    return {
      query,
      bookingEnabled,
      loadError: error instanceof Error ? error.message : String(error),
      appointments: [] as AppointmentJson[],
      mailedIds: [] as number[],
      pagination: {
        page: 1,
        limit: query.limit,
        totalCount: 0,
        totalPages: 1,
        hasPrev: false,
        hasNext: false,
      },
    };
  }
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const back = backTo(request);
  const id = parseId(String(form.get("id") ?? ""));
  if (!id) return redirectWithToast(back, { type: "error", message: "Termin nicht gefunden." });
  return handleCardForm(admin.id, id, form, back);
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export default function AppointmentsPage({ loaderData }: Route.ComponentProps) {
  const { query, bookingEnabled, loadError, appointments, pagination, mailedIds } = loaderData;
  const pageHref = (page: number) => {
    const p = new URLSearchParams();
    if (query.filter !== "all") p.set("filter", query.filter);
    if (query.sort !== "newest") p.set("sort", query.sort);
    if (!filterIsAll(query.statuses)) for (const s of query.statuses) p.append("status", s);
    if (query.search) p.set("search", query.search);
    if (page > 1) p.set("page", String(page));
    return `/admin/appointments${p.size ? `?${p}` : ""}`;
  };
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-bold">Termine</h1>
      {!bookingEnabled ? (
        <div role="alert" className="rounded-lg bg-red-600 px-4 py-3 font-semibold text-white">
          Achtung: Terminbuchungen deaktiviert
        </div>
      ) : null}
      {loadError ? <Alert>Fehler beim Laden der Daten: {loadError}</Alert> : null}
      <Form
        method="get"
        className="grid gap-3 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-3 dark:border-slate-800 dark:bg-slate-900"
      >
        <FilterSelect
          name="filter"
          label="Zeitraum"
          value={query.filter}
          options={labelled(TIME_FILTERS, TIME_FILTER_LABELS)}
        />
        <FilterSelect
          name="sort"
          label="Sortierung"
          value={query.sort}
          options={labelled(APPOINTMENT_SORTS, APPOINTMENT_SORT_LABELS)}
        />
        <CheckboxGroup
          legend={`Status: ${statusFilterLabel(query.statuses)}`}
          name="status"
          options={STATUS_GROUPS.map((s) => ({
            value: s,
            label: STATUS_GROUP_LABELS[s],
            checked: filterIsAll(query.statuses) || filterGroups(query.statuses).includes(s),
          }))}
        />
        {/* A row of its own: its placeholder is never cut, at 390 px as at 1400 px; on the
            narrowest phones the placeholder (not the typed text) shrinks to the box's width
            (a container query on this row, ADR 342). */}
        <div className="@container sm:col-span-2 lg:col-span-3">
          <label htmlFor="search" className="mb-1 block text-sm font-medium">
            Suche
          </label>
          <input
            id="search"
            name="search"
            type="search"
            defaultValue={query.search}
            placeholder="Suchen nach Kontakten oder Inhalten..."
            className={`${inputClass} placeholder:text-[length:min(1rem,calc((100cqw_-_2rem)/20))]`}
          />
        </div>
        <div className="sm:col-span-2 lg:col-span-3">
          <Button type="submit" size="sm">
            Anwenden
          </Button>
        </div>
      </Form>
      {appointments.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:text-slate-400 dark:border-slate-700">
          {emptyMessage(query.search, query.filter)}
        </p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {appointments.map((a) => (
            <AppointmentCard key={a.id} a={a} mailed={mailedIds.includes(a.id)} />
          ))}
        </ul>
      )}
      <Pagination
        page={pagination.page}
        totalPages={pagination.totalPages}
        text={paginationText(pagination.page, pagination.limit, pagination.totalCount)}
        hrefFor={pageHref}
      />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Abrufen der Termine" />;
}
