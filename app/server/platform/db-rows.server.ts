import { fillPlaceholders, getTableColumns, type InferSelectModel, type Table } from "drizzle-orm";
import { db } from "./db.server";

type Query = { toSQL(): { sql: string; params: unknown[] } };

/**
 * A read of whole `table` rows, built once and decoded by a function compiled for the table
 * (ADR 298): `query` is a `db().select().from(table)…` whose parameters are `sql.placeholder`s,
 * filled per call. drizzle's own `.all()` builds the SQL text anew on every call (~0.1–0.2 ms) and
 * maps every cell through `mapResultRow` — a prototype walk (`is()`), an iterator and an entry
 * array per cell: for the 1,000 rows of the API list (32 columns) ~3 ms of CPU of 6 and most of its
 * short-lived garbage. The decoding is drizzle's own: null stays null, anything else goes through
 * the column's `mapFromDriverValue` (dates, booleans, JSON). The query must select exactly the
 * table's columns in order (checked when it is built; anything else throws).
 */
export function preparedRows<T extends Table>(
  table: T,
  query: () => Query,
): (values?: Record<string, unknown>) => InferSelectModel<T>[] {
  const columns = Object.entries(getTableColumns(table));
  const locals = columns.map((_, i) => `const c${i} = columns[${i}][1];`).join("\n");
  // Only the schema's property names (JSON-quoted) and positions reach the generated code.
  const fields = columns
    .map(
      ([key], i) =>
        `${JSON.stringify(key)}: r[${i}] === null ? null : c${i}.mapFromDriverValue(r[${i}])`,
    )
    .join(",\n");
  const decode = new Function("columns", `${locals}\nreturn (r) => ({\n${fields}\n});`)(
    columns,
  ) as (row: unknown[]) => InferSelectModel<T>;
  let built: { db: unknown; sql: string; params: unknown[] } | undefined;
  return (values = {}) => {
    if (built?.db !== db()) {
      const { sql, params } = query().toSQL();
      const selected = db()
        .$client.prepare(sql)
        .columns()
        .map((column) => column.name);
      if (selected.join("\u0000") !== columns.map(([, column]) => column.name).join("\u0000"))
        throw new Error(`preparedRows: not the whole row in order: ${sql}`);
      built = { db: db(), sql, params };
    }
    // The statement cache (ADR 167) hands back the same statement, reset to objects; rows as arrays.
    const statement = db().$client.prepare(built.sql).raw(true);
    return (statement.all(...fillPlaceholders(built.params, values)) as unknown[][]).map(decode);
  };
}
