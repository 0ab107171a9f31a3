// Listening before the database is ready (ADR 277): a migration with a long backfill or
// index build must never keep Fly's health check waiting. The server listens at once, answers
// /healthz with 200 ("starting") and every other path with 503 + Retry-After while the migrations
// run in a child process (server/migrate-worker.ts) and the boot finishes; then it serves.
import { spawn } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import type express from "express";

const ROOT = path.resolve(import.meta.dirname, "..");
/** Seconds a client is asked to wait while the server starts. */
export const STARTING_RETRY_AFTER = 5;

/** A child's exit code for "refused, and here is the one line why" (its stderr is the message). */
export const REFUSED_EXIT_CODE = 2;

/**
 * Runs `name` (server/<name>.ts, build-server/<name>.js in production: scripts/build-server.ts) in a
 * child process with `data` as its argument and resolves with the JSON line it prints, or rejects
 * with `failure`, the exit code and what the child wrote to stderr (exit code 2: with that alone). A child process, not a worker thread (ADR 296): a worker's
 * second V8 isolate left ~25 MB in the server for good (boot peak 171 MB, idle 155 MB instead of
 * 143 / 130 MB); a process gives all of it back when it exits.
 */
export function runInChild<T>(name: string, data: unknown, failure: string): Promise<T> {
  const file = path.join(import.meta.dirname, `${name}${path.extname(import.meta.url)}`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, file, JSON.stringify(data)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      out += chunk;
    });
    // The child's complaint goes into the error (the caller reports it once, or not at all when
    // the server stops for another reason first), at most its last 4 KB.
    let complaint = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      complaint = (complaint + chunk).slice(-4096);
    });
    child.once("error", reject);
    child.once("close", (code) => {
      const line = out.trim().split("\n").at(-1);
      if (code === 0 && line) resolve(JSON.parse(line) as T);
      else if (code === REFUSED_EXIT_CODE && complaint.trim()) reject(new Error(complaint.trim()));
      else
        reject(new Error(`${failure} ${code}${complaint.trim() ? `: ${complaint.trim()}` : ""}`));
    });
  });
}

/**
 * Runs the migrations of `databasePath` in a child process; resolves with their duration (ms) and
 * the backup taken before them (a database with data and migrations to apply, ADR 323). Rejects
 * with one German line for a database a newer build migrated.
 */
export async function migrateInWorker(
  databasePath: string,
  backupKeep: number,
): Promise<{ ms: number; backup?: string }> {
  const migrationsFolder = process.env.MIGRATIONS_DIR ?? path.join(ROOT, "db/migrations");
  return runInChild<{ ms: number; backup?: string }>(
    "migrate-worker",
    { databasePath: path.resolve(databasePath), migrationsFolder, backupKeep },
    "Migration beendet mit Code",
  );
}

/** The gate in front of the app while it starts: open() lets every request through. */
export function startupGate() {
  let ready = false;
  const middleware: express.RequestHandler = (req, res, next) => {
    if (ready) return next();
    // Expected while starting: the request log writes it as info, not as a failed request.
    res.locals.startupGate = true;
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
 * integrity check of every page in a child process, once the server listens and serves. "ok"
 * removes the marker; anything else is logged as an error on every start until it is dealt with.
 */
export async function checkRestoredIntegrity(databasePath: string): Promise<string | null> {
  const marker = `${path.resolve(databasePath)}.check`;
  if (!existsSync(marker)) return null;
  const { result, ms } = await runInChild<{ result: string; ms: number }>(
    "integrity-worker",
    { databasePath: path.resolve(databasePath) },
    "Integritätsprüfung beendet mit Code",
  );
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
