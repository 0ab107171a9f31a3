import type Database from "better-sqlite3";

/** How many distinct SQL texts keep their prepared statement (least recently used go first). */
export const STATEMENT_CACHE_SIZE = 256;

/**
 * Makes `sqlite.prepare` reuse the statement prepared before for the same SQL text (ADR 167).
 * drizzle prepares every query anew; each statement holds ~5 KB of SQLite memory outside V8's
 * heap, freed only when V8 happens to collect the tiny JS wrapper, so under load the native
 * memory grew by tens of MB between major collections and parsing the SQL cost CPU on every query.
 * A reused statement comes back in its default mode (objects, not raw/pluck/expand); one that is
 * busy (an open iterator) is never handed out twice — a fresh one is prepared instead.
 */
export function cacheStatements(sqlite: Database.Database, max = STATEMENT_CACHE_SIZE) {
  const prepare = sqlite.prepare.bind(sqlite);
  const cache = new Map<string, Database.Statement>();
  sqlite.prepare = ((source: string) => {
    const cached = cache.get(source);
    if (cached && !cached.busy) {
      // Most recently used last: Map keeps insertion order.
      cache.delete(source);
      cache.set(source, cached);
      if (cached.reader) cached.pluck(false).expand(false).raw(false);
      return cached;
    }
    const statement = prepare(source);
    if (!cached) {
      cache.set(source, statement);
      if (cache.size > max) cache.delete(cache.keys().next().value as string);
    }
    return statement;
  }) as typeof sqlite.prepare;
  return { size: () => cache.size };
}
