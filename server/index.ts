import type { Server } from "node:http";
import { readEnvVariables } from "../app/server/platform/env.server.ts";
import { type BootResult, createApp, type EntryExtras, importBuild } from "./app.ts";
import { routeConsoleToLogger } from "./logger.ts";
import { startMetricsServer } from "./metrics.ts";
import { privateFiles } from "./private-files.ts";
import { checkRestoredIntegrity, migrateInWorker, startupGate } from "./startup.ts";

// Every console line of the server process becomes one scrubbed JSON line (server/logger.ts).
routeConsoleToLogger();

/** One clear plain line (e.g. "Ungültige Konfiguration: PORT="abc" (...)"), no stack, whatever LOG_LEVEL says. */
function fail(error: unknown): never {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

// The migrations start in their child process at once, beside the import of the build (~0.5 s,
// the other core): the app's own parser gives the database path (the launcher has loaded it
// already). A bad configuration is reported by the build's parser below.
type Migrated = { ms: number; backup?: string } | { error: unknown };
let migrated: Promise<Migrated> | undefined;
try {
  const variables = readEnvVariables();
  // Every file this process and its children create is the server user's alone (ADR 324).
  privateFiles(variables.DATABASE_PATH, variables.UPLOADS_DIR);
  migrated = migrateInWorker(variables.DATABASE_PATH, variables.BACKUP_KEEP).catch(
    (error: unknown) => ({ error }),
  );
} catch {}

let imported: Awaited<ReturnType<typeof importBuild>>;
let config: ReturnType<EntryExtras["config"]>;
try {
  imported = await importBuild();
  config = imported.extras.config();
} catch (error) {
  fail(error);
}
const { build, extras } = imported;
// Listen first (ADR 277): /healthz answers 200 and the app 503 + Retry-After while the
// migrations run in their child process and the boot finishes.
const gate = startupGate();
const app = createApp(build, { env: config }, undefined, gate.middleware);

const server: Server = app.listen(config.PORT, config.HOST, () => {
  console.log(`Anfrage-Portal läuft auf http://localhost:${config.PORT}`);
});
let boot: BootResult | undefined;
const booting = (async () => {
  try {
    const result: Migrated = await (migrated ??
      migrateInWorker(config.DATABASE_PATH, readEnvVariables().BACKUP_KEEP));
    if ("error" in result) throw result.error;
    const { ms, backup } = result;
    if (backup) console.log(`Sicherung vor den Migrationen: ${backup}`);
    if (ms > 1000) console.log(`Migrationen in ${(ms / 1000).toFixed(1)} s angewendet.`);
    boot = await extras.boot();
    gate.open();
  } catch (error) {
    fail(error);
  }
})();
// After a restore: every page checked in a child process while the app serves (ADR 296).
void booting.then(() =>
  checkRestoredIntegrity(config.DATABASE_PATH).catch((error: unknown) =>
    console.error("Integritätsprüfung fehlgeschlagen:", error),
  ),
);
server.keepAliveTimeout = 65_000;
// Prometheus metrics on their own internal port (METRICS_PORT=0 switches them off).
const metricsServer = config.METRICS_PORT
  ? startMetricsServer(
      config.METRICS_PORT,
      config.METRICS_HOST ?? (process.env.FLY_APP_NAME ? "::" : "127.0.0.1"),
    )
  : undefined;

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`${signal} erhalten: beende laufende Anfragen ...`);
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  metricsServer?.close();
  server.close(async () => {
    await booting;
    await boot?.shutdown();
    process.exit(0);
  });
  // Keep-alive connections that finish their request after this point become idle and are closed
  // too, so the drain ends as soon as the last in-flight request is answered.
  server.closeIdleConnections();
  setInterval(() => server.closeIdleConnections(), 100).unref();
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
