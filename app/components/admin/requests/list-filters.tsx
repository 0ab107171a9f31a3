import { FilterPanel } from "~/components/admin/requests/filter-panel";
import { SourceFilter } from "~/components/admin/requests/source-filter";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import type { Stage } from "~/lib/pipeline";
import { PROMISE_FILTER_LABELS, PROMISE_FILTERS } from "~/lib/promises";
import {
  ASSIGNMENT_FILTERS,
  ASSIGNMENT_LABELS,
  REQUEST_SORTS,
  REQUEST_STATUSES,
  type RequestListQuery,
  SORT_LABELS,
  STATUS_LABELS,
} from "~/lib/request-list";

/**
 * The list's filters (a GET form, folded on a phone): search, status, assignment, source, the
 * pipeline's stage and promise (ADRs 345, 346), sort.
 */
export function ListFilters({
  query,
  sources,
  stages,
}: {
  query: RequestListQuery;
  sources: string[];
  stages: Stage[];
}) {
  return (
    <FilterPanel
      activeCount={
        [query.q, query.status, query.assignment, query.source, query.stage, query.promise].filter(
          Boolean,
        ).length
      }
      className="grid gap-3 p-4 pt-0 sm:grid-cols-2 sm:pt-4 lg:grid-cols-5 xl:grid-cols-6"
      actions={
        <div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-5 xl:col-span-6">
          <button type="submit" className={buttonClass("primary", "sm")}>
            Filter anwenden
          </button>
        </div>
      }
    >
      {query.tab !== "active" ? <input type="hidden" name="tab" value={query.tab} /> : null}
      <div className="lg:col-span-2">
        <label htmlFor="q" className="mb-1 block text-sm font-medium">
          Suche
        </label>
        <input
          id="q"
          name="q"
          type="search"
          defaultValue={query.q}
          placeholder="Name, E-Mail, Telefon, Unternehmen, Beschreibung"
          className={inputClass}
        />
      </div>
      <div>
        <label htmlFor="status" className="mb-1 block text-sm font-medium">
          Status
        </label>
        <select id="status" name="status" defaultValue={query.status} className={inputClass}>
          <option value="">Alle</option>
          {REQUEST_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="assignment" className="mb-1 block text-sm font-medium">
          Zuweisung
        </label>
        <select
          id="assignment"
          name="assignment"
          defaultValue={query.assignment}
          className={inputClass}
        >
          <option value="">Alle</option>
          {ASSIGNMENT_FILTERS.map((a) => (
            <option key={a} value={a}>
              {ASSIGNMENT_LABELS[a]}
            </option>
          ))}
        </select>
      </div>
      <SourceFilter sources={sources} value={query.source} />
      <div>
        <label htmlFor="stage" className="mb-1 block text-sm font-medium">
          Phase
        </label>
        <select id="stage" name="stage" defaultValue={query.stage} className={inputClass}>
          <option value="">Alle</option>
          {stages.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="promise" className="mb-1 block text-sm font-medium">
          Versprechen
        </label>
        <select id="promise" name="promise" defaultValue={query.promise} className={inputClass}>
          <option value="">Alle</option>
          {PROMISE_FILTERS.map((p) => (
            <option key={p} value={p}>
              {PROMISE_FILTER_LABELS[p]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor="sort" className="mb-1 block text-sm font-medium">
          Sortierung
        </label>
        <select id="sort" name="sort" defaultValue={query.sort} className={inputClass}>
          {REQUEST_SORTS.filter((s) => s !== "relevance" || query.q).map((s) => (
            <option key={s} value={s}>
              {SORT_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
    </FilterPanel>
  );
}
