import type { SQL } from "drizzle-orm";
import type { SelectResultFields } from "drizzle-orm/query-builders/select.types";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { type attachments, requests } from "~db/schema";

/**
 * The machinery of the request column registry (ADR 242): one entry per column of a request says
 * its JSON key and value, its cell in the admin list's row (with the SQL that cell reads) and its
 * CSV header and cell. The request JSON, the list items and the CSV export are all built from one
 * registry (`requestColumns` in `columns.server.ts`), so a new column is one entry there.
 */

export type RequestRow = typeof requests.$inferSelect;
export type AttachmentRow = typeof attachments.$inferSelect;

/** What one list cell reads in the list's row query: columns or SQL expressions, flat. */
export type ListSelection = Record<string, SQLiteColumn | SQL | SQL.Aliased>;

/** What every CSV cell may use besides its own value (loaded once per export). */
export type CsvContext = { usernames: ReadonlyMap<number, string> };

/** A list cell (built with `listCell`): the item key, what it selects and its value. */
export type ListPart<L extends string, V> = {
  key: L;
  select: ListSelection;
  /** `row` is the selection's result (typed by `listCell`); files = attachment count. */
  cell: (row: never, files: number, assignedTo: number[]) => V;
};

/**
 * One column: `key` and `json` make the request JSON (`J`), `list` the admin list's row (`I`),
 * `csv` the export's column (`position` orders the CSV; columns without one follow in registry
 * order). The JSON's key order is the registry's order.
 */
export type RequestColumn<J, I> = {
  [K in keyof J & string]: {
    key: K;
    /** files: the request's attachments by id; assignedTo: admin ids in order of assignment. */
    json: (row: RequestRow, files: AttachmentRow[], assignedTo: number[]) => J[K];
    list?: { [L in keyof I & string]: ListPart<L, I[L]> }[keyof I & string];
    csv?: { position?: number; label: string; cell: (value: J[K], context: CsvContext) => string };
  };
}[keyof J & string];

/** A list cell whose `row` is typed by what it selects. */
export function listCell<const L extends string, S extends ListSelection, V>(
  key: L,
  select: S,
  cell: (row: SelectResultFields<S>, files: number, assignedTo: number[]) => V,
): ListPart<L, V> {
  return { key, select, cell };
}

type CsvColumn = {
  label: string;
  cell: (row: RequestRow, files: AttachmentRow[], assignedTo: number[], c: CsvContext) => string;
};

/** A registry compiled once: what the JSON, the list and the CSV builders run per row. */
export type ColumnRegistry<J, I> = {
  readonly entries: readonly RequestColumn<J, I>[];
  /** The request JSON of one row, keys in registry order. */
  json(row: RequestRow, files: AttachmentRow[], assignedTo: number[]): J;
  /** Everything the list cells select, plus the id (one flat selection of the row query). */
  readonly listSelection: ListSelection & { id: typeof requests.id };
  /** One list item from a row of `listSelection`. */
  listItem(row: { id: number }, files: number, assignedTo: number[]): I;
  /** The CSV's columns in their order: header label and cell text (not yet neutralised). */
  readonly csvColumns: readonly CsvColumn[];
};

type Cell = (a: never, b: never, c: never) => unknown;

/**
 * A function that builds `{ [keys[i]]: cells[i](a, b, c), … }` as one object literal: the shape
 * and cost per row of a hand-written literal (a loop of `out[key] = …` took ~50% longer per row
 * and grew the object's property store). Only the registry's keys (JSON-quoted) and positions
 * reach the generated code, never request data.
 */
function objectBuilder(
  keys: string[],
  cells: Cell[],
): (a: unknown, b: unknown, c: unknown) => unknown {
  const locals = cells.map((_, i) => `const c${i} = cells[${i}];`).join("\n");
  const fields = keys.map((key, i) => `${JSON.stringify(key)}: c${i}(a, b, c)`).join(",\n");
  return new Function("cells", `${locals}\nreturn (a, b, c) => ({\n${fields}\n});`)(cells);
}

/** Any registry, for the builders' implementations (they do not care about the wire types). */
export type AnyColumnRegistry = Omit<ColumnRegistry<unknown, unknown>, "entries">;

function unique(kind: string, seen: Set<string>, name: string) {
  if (name === "__proto__") throw new Error(`Request column registry: ${kind} "${name}"`);
  if (seen.has(name)) throw new Error(`Request column registry: ${kind} "${name}" twice`);
  seen.add(name);
}

/**
 * Checks and compiles the entries (duplicate JSON keys, list keys, CSV labels or positions and
 * clashing list selections throw here, at module load, not in a request).
 */
export function defineRequestColumns<J, I>(
  entries: readonly RequestColumn<J, I>[],
): ColumnRegistry<J, I> {
  const [keys, listKeys, labels, positions] = [
    new Set<string>(),
    new Set<string>(),
    new Set<string>(),
    new Set<string>(),
  ];
  const listSelection: ListSelection & { id: typeof requests.id } = { id: requests.id };
  const listParts: ListPart<string, unknown>[] = [];
  for (const entry of entries) {
    unique("JSON key", keys, entry.key);
    if (entry.list) {
      unique("list key", listKeys, entry.list.key);
      listParts.push(entry.list);
      for (const [name, selected] of Object.entries(entry.list.select)) {
        if (name in listSelection && listSelection[name] !== selected)
          throw new Error(`Request column registry: list selection "${name}" twice`);
        listSelection[name] = selected;
      }
    }
    if (entry.csv) {
      unique("CSV label", labels, entry.csv.label);
      if (entry.csv.position !== undefined)
        unique("CSV position", positions, String(entry.csv.position));
    }
  }
  const csvColumns = entries
    .filter((entry) => entry.csv)
    // A stable sort: columns without a position keep their registry order, after the others.
    .sort(
      (a, b) =>
        (a.csv?.position ?? Number.MAX_SAFE_INTEGER) - (b.csv?.position ?? Number.MAX_SAFE_INTEGER),
    )
    .map((entry): CsvColumn => {
      const csv = entry.csv as NonNullable<typeof entry.csv>;
      const cell = csv.cell as (value: unknown, c: CsvContext) => string;
      return {
        label: csv.label,
        cell: (row, files, assignedTo, c) => cell(entry.json(row, files, assignedTo), c),
      };
    });
  const json = objectBuilder(
    entries.map((entry) => entry.key),
    entries.map((entry) => entry.json as Cell),
  );
  const listItem = objectBuilder(
    listParts.map((part) => part.key),
    listParts.map((part) => part.cell as Cell),
  );
  return {
    entries,
    json: (row, files, assignedTo) => json(row, files, assignedTo) as J,
    listSelection,
    listItem: (row, files, assignedTo) => listItem(row, files, assignedTo) as I,
    csvColumns,
  };
}

/** The list keys of registry entries (for the completeness checks of a registry's wire types). */
export type ListKeys<E> = E extends { list: { key: infer L } } ? L : never;
