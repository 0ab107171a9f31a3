import { Link } from "react-router";
import type { Stage } from "~/lib/pipeline";
import { PROMISE_FILTER_LABELS } from "~/lib/promises";
import {
  ASSIGNMENT_LABELS,
  type RequestListQuery,
  requestListSearch,
  STATUS_LABELS,
} from "~/lib/request-list";

/** The active filters as removable chips above the request list, plus "reset all". */
export function FilterChips({ query, stages }: { query: RequestListQuery; stages: Stage[] }) {
  const chips: { label: string; without: Partial<RequestListQuery> }[] = [];
  if (query.q) chips.push({ label: `Suche: „${query.q}“`, without: { q: "" } });
  if (query.status)
    chips.push({ label: `Status: ${STATUS_LABELS[query.status]}`, without: { status: "" } });
  if (query.assignment)
    chips.push({ label: ASSIGNMENT_LABELS[query.assignment], without: { assignment: "" } });
  if (query.source) chips.push({ label: `Quelle: ${query.source}`, without: { source: "" } });
  if (query.stage) {
    const name = stages.find((s) => s.id === query.stage)?.name ?? query.stage;
    chips.push({ label: `Phase: ${name}`, without: { stage: "" } });
  }
  if (query.promise)
    chips.push({
      label: `Versprechen: ${PROMISE_FILTER_LABELS[query.promise]}`,
      without: { promise: "" },
    });
  if (!chips.length) return null;
  return (
    <fieldset className="flex flex-wrap items-center gap-2">
      <legend className="sr-only">Aktive Filter</legend>
      {chips.map((chip) => (
        <Link
          key={chip.label}
          to={requestListSearch({ ...query, ...chip.without, page: 1 })}
          className="inline-flex items-center gap-1 rounded-full bg-indigo-100 px-3 py-1 text-sm text-indigo-900 hover:bg-indigo-200 dark:bg-indigo-950 dark:text-indigo-100"
          aria-label={`Filter entfernen: ${chip.label}`}
        >
          {chip.label} <span aria-hidden="true">×</span>
        </Link>
      ))}
      <Link
        to={requestListSearch({ tab: query.tab })}
        className="text-sm text-indigo-700 underline dark:text-indigo-300"
      >
        Alle Filter zurücksetzen
      </Link>
    </fieldset>
  );
}
