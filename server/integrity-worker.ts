// `PRAGMA quick_check` of the database in a worker thread (issue 31): after `npm run restore` the
// server listens and serves at once, and this reads every page off its event loop.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

const { databasePath } = workerData as { databasePath: string };
const sqlite = new Database(databasePath, { readonly: true, fileMustExist: true });
try {
  const started = performance.now();
  const result = sqlite.pragma("quick_check", { simple: true }) as string;
  parentPort?.postMessage({ result, ms: Math.round(performance.now() - started) });
} finally {
  sqlite.close();
}
