import Database from "better-sqlite3";

/**
 * Finds the server's own SQLite connection in an in-process test server: better-sqlite3's
 * `prepare` is wrapped before the build opens the database (cacheStatements binds the
 * prototype's prepare at open time), so what lives on that connection only — the temporary hit
 * tables of a search export — can be listed. `onPrepare` may wrap a statement (e.g. to count
 * reads). `restore()` puts the original `prepare` back.
 */
export function spyOnConnections(
  onPrepare?: (source: string, statement: Database.Statement) => void,
) {
  const connections = new Set<Database.Database>();
  const original = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database.Database, source: string) {
    connections.add(this);
    const statement = original.call(this, source);
    onPrepare?.(source, statement);
    return statement;
  } as typeof Database.prototype.prepare;
  return {
    /** Temporary tables on every open connection of this process (the server's among them). */
    tempTables(): string[] {
      const names: string[] = [];
      for (const connection of connections) {
        if (!connection.open) continue;
        names.push(
          ...(connection
            .prepare("SELECT name FROM sqlite_temp_master WHERE type = 'table'")
            .pluck()
            .all() as string[]),
        );
      }
      return names;
    },
    restore() {
      Database.prototype.prepare = original;
    },
  };
}
