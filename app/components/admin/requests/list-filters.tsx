import { FilterPanel } from "~/components/admin/requests/filter-panel";
import { SourceFilter } from "~/components/admin/requests/source-filter";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { FilterSelect, labelled } from "~/components/ui/filter-select";
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
      <FilterSelect
        name="status"
        label="Status"
        value={query.status}
        options={labelled(REQUEST_STATUSES, STATUS_LABELS)}
        all
      />
      <FilterSelect
        name="assignment"
        label="Zuweisung"
        value={query.assignment}
        options={labelled(ASSIGNMENT_FILTERS, ASSIGNMENT_LABELS)}
        all
      />
      <SourceFilter sources={sources} value={query.source} />
      <FilterSelect
        name="stage"
        label="Phase"
        value={query.stage}
        options={stages.map((st) => [st.id, st.name] as const)}
        all
      />
      <FilterSelect
        name="promise"
        label="Versprechen"
        value={query.promise}
        options={labelled(PROMISE_FILTERS, PROMISE_FILTER_LABELS)}
        all
      />
      <FilterSelect
        name="sort"
        label="Sortierung"
        value={query.sort}
        options={labelled(
          REQUEST_SORTS.filter((s) => s !== "relevance" || query.q),
          SORT_LABELS,
        )}
      />
    </FilterPanel>
  );
}
