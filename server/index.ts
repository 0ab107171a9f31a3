import type { Server } from "node:http";
import { createApp, loadBuild } from "./app.ts";
import { routeConsoleToLogger } from "./logger.ts";
import { startMetricsServer } from "./metrics.ts";

// Every console line of the server process becomes one scrubbed JSON line (server/logger.ts).
routeConsoleToLogger();

let loaded: Awaited<ReturnType<typeof loadBuild>>;
try {
  loaded = await loadBuild();
} catch (error) {
  // One clear plain line (e.g. "Ungültige Konfiguration: PORT="abc" (...)"), no stack, whatever
  // LOG_LEVEL says: the process cannot start.
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
const { build, boot } = loaded;
const app = createApp(build, boot);

const server: Server = app.listen(boot.env.PORT, boot.env.HOST, () => {
  console.log(`Anfrage-Portal läuft auf http://localhost:${boot.env.PORT}`);
});
server.keepAliveTimeout = 65_000;
// Prometheus metrics on their own internal port (METRICS_PORT=0 switches them off).
const metricsServer = boot.env.METRICS_PORT
  ? startMetricsServer(
      boot.env.METRICS_PORT,
      boot.env.METRICS_HOST ?? (process.env.FLY_APP_NAME ? "::" : "127.0.0.1"),
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
    await boot.shutdown();
    process.exit(0);
  });
  // Keep-alive connections that finish their request after this point become idle and are closed
  // too, so the drain ends as soon as the last in-flight request is answered.
  server.closeIdleConnections();
  setInterval(() => server.closeIdleConnections(), 100).unref();
}
process.on("SIGTERM", () => stop("SIGTERM"));
process.on("SIGINT", () => stop("SIGINT"));
