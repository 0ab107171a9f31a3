// `npm run dev`: the same Express app as production (server/app.ts: helmet, CSP with nonce, Origin
// and body guards, request logs), with Vite in middleware mode serving the client files and hot
// reload; the server build is loaded from Vite on every request, so route changes apply at once.
import { createServer as createHttpServer } from "node:http";
import type { ServerBuild } from "react-router";
import { createServer as createViteServer } from "vite";
import { createApp, type EntryExtras } from "./app.ts";
import { routeConsoleToLogger } from "./logger.ts";
import { startMetricsServer } from "./metrics.ts";

routeConsoleToLogger();

const httpServer = createHttpServer();
const vite = await createViteServer({
  // HMR's websocket shares the app's port (no second port to open or configure).
  server: { middlewareMode: true, hmr: { server: httpServer } },
  appType: "custom",
});
const loadBuild = () =>
  vite.ssrLoadModule("virtual:react-router/server-build") as Promise<ServerBuild>;

let build: ServerBuild;
let boot: Awaited<ReturnType<EntryExtras["boot"]>>;
try {
  build = await loadBuild();
  boot = await (build.entry.module as unknown as EntryExtras).boot();
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  await vite.close();
  process.exit(1);
}

const app = createApp(build, boot, { middlewares: vite.middlewares, loadBuild });
httpServer.on("request", app);
httpServer.listen(boot.env.PORT, boot.env.HOST, () => {
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : boot.env.PORT;
  console.log(`Anfrage-Portal (Entwicklung) läuft auf http://localhost:${port}`);
});
const metricsServer = boot.env.METRICS_PORT
  ? startMetricsServer(boot.env.METRICS_PORT, boot.env.METRICS_HOST ?? "127.0.0.1")
  : undefined;

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  metricsServer?.close();
  httpServer.closeAllConnections();
  httpServer.close();
  await vite.close();
  await boot.shutdown();
  process.exit(0);
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
