// `PRAGMA quick_check` of the database in a child process (ADR 296): after `npm run
// restore` the server listens and serves at once, and this reads every page off its event loop.
// Input: JSON in argv[2]; output: one JSON line.
import Database from "better-sqlite3";

const { databasePath } = JSON.parse(process.argv[2]) as { databasePath: string };
const sqlite = new Database(databasePath, { readonly: true, fileMustExist: true });
try {
  const started = performance.now();
  const result = sqlite.pragma("quick_check", { simple: true }) as string;
  process.stdout.write(
    `${JSON.stringify({ result, ms: Math.round(performance.now() - started) })}\n`,
  );
} finally {
  sqlite.close();
}
