// Listening before the database is ready (issue 31, ADR 277): a migration with a long backfill or
// index build must never keep Fly's health check waiting. The server listens at once, answers
// /healthz with 200 ("starting") and every other path with 503 + Retry-After while the migrations
// run in a worker thread (server/migrate-worker.ts) and the boot finishes; then it serves.
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type express from "express";

const ROOT = path.resolve(import.meta.dirname, "..");
/** Seconds a client is asked to wait while the server starts. */
export const STARTING_RETRY_AFTER = 5;

/** Runs the migrations of `databasePath` in a worker thread; resolves with their duration (ms). */
export function migrateInWorker(databasePath: string): Promise<number> {
  const migrationsFolder = process.env.MIGRATIONS_DIR ?? path.join(ROOT, "db/migrations");
  // server/*.ts in development and tests, build-server/*.js in production (scripts/build-server.ts).
  const file = new URL(`./migrate-worker${path.extname(import.meta.url)}`, import.meta.url);
  return new Promise((resolve, reject) => {
    let ms = 0;
    const worker = new Worker(file, {
      workerData: { databasePath: path.resolve(databasePath), migrationsFolder },
    });
    worker.on("message", (message: { ms: number }) => {
      ms = message.ms;
    });
    worker.once("error", reject);
    worker.once("exit", (code) =>
      code === 0 ? resolve(ms) : reject(new Error(`Migration beendet mit Code ${code}`)),
    );
  });
}

/** The gate in front of the app while it starts: open() lets every request through. */
export function startupGate() {
  let ready = false;
  const middleware: express.RequestHandler = (req, res, next) => {
    if (ready) return next();
    res.setHeader("Cache-Control", "no-store");
    res.type("text/plain; charset=utf-8");
    if (req.path === "/healthz") {
      res.status(200).send("Startet");
      return;
    }
    res.setHeader("Retry-After", String(STARTING_RETRY_AFTER));
    res
      .status(503)
      .send("Das Anfrage-Portal startet gerade. Bitte in ein paar Sekunden erneut versuchen.");
  };
  return {
    middleware,
    open() {
      ready = true;
    },
    get ready() {
      return ready;
    },
  };
}

/**
 * After a restore (`npm run restore` leaves `<DATABASE_PATH>.check`, unless `--no-check`): the
 * integrity check of every page in a worker thread, once the server listens and serves. "ok"
 * removes the marker; anything else is logged as an error on every start until it is dealt with.
 */
export async function checkRestoredIntegrity(databasePath: string): Promise<string | null> {
  const marker = `${path.resolve(databasePath)}.check`;
  if (!existsSync(marker)) return null;
  const file = new URL(`./integrity-worker${path.extname(import.meta.url)}`, import.meta.url);
  const { result, ms } = await new Promise<{ result: string; ms: number }>((resolve, reject) => {
    const worker = new Worker(file, { workerData: { databasePath: path.resolve(databasePath) } });
    worker.once("message", resolve);
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`Integritätsprüfung beendet mit Code ${code}`)));
  });
  if (result === "ok") {
    rmSync(marker, { force: true });
    console.log(`Integritätsprüfung nach der Wiederherstellung: ok (${(ms / 1000).toFixed(1)} s).`);
  } else {
    console.error(
      `Integritätsprüfung nach der Wiederherstellung: die Datenbank ist beschädigt (${result}). Bitte eine ältere Sicherung wiederherstellen (docs/operations.md).`,
    );
  }
  return result;
}
