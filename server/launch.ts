// Process entry for `npm start` and the Docker image. First it restarts itself in place with the
// production runtime (V8 flags, allocator: server/runtime.ts, ADR 165) unless it already has it.
// Without LITESTREAM_REPLICA_URL / BUCKET_NAME it then simply runs the server in this process. With
// them (ADR 090):
//   1. writes litestream.yml (server/litestream.ts),
//   2. `litestream restore -if-db-not-exists -if-replica-exists` (a new machine gets the replicated data),
//   3. becomes `litestream replicate -exec "<node> server/index.ts"` (execve: no launcher process stays
//      behind, ADR 165): Litestream ships every WAL change to the replica, forwards SIGTERM to the
//      server and exits with its exit code.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { readEnvVariables } from "../app/server/platform/env.server.ts";
import { litestreamBinary, litestreamPlan } from "./litestream.ts";
import { privateFiles } from "./private-files.ts";
import { applyRuntime, LITESTREAM_ENV, replaceProcess } from "./runtime.ts";

applyRuntime();

let plan: ReturnType<typeof litestreamPlan>;
let variables: ReturnType<typeof readEnvVariables>;
try {
  // The server's parser and defaults (app/server/platform/env.server.ts): a bad value stops here already.
  variables = readEnvVariables();
  // Litestream's files and the server's are private too (ADR 324; the umask is inherited).
  privateFiles(variables.DATABASE_PATH, variables.UPLOADS_DIR);
  // Litestream's own metrics on loopback, METRICS_PORT + 1: the server reads the replication lag there.
  const metricsPort = variables.METRICS_PORT;
  plan = litestreamPlan(process.env, {
    metricsAddr: metricsPort > 0 ? `127.0.0.1:${metricsPort + 1}` : undefined,
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

if (!plan) {
  await import("./index.ts");
} else {
  if (!variables.SESSION_SECRET?.trim()) {
    const bar = "!".repeat(100);
    console.error(
      [
        bar,
        "WARNUNG: Die Datenbank wird repliziert, aber SESSION_SECRET ist nicht gesetzt.",
        "Das Sitzungsgeheimnis liegt dann nur in <Datenverzeichnis>/.session-secret und wird NICHT repliziert:",
        "nach einer Wiederherstellung auf einer neuen Maschine sind alle Admins abgemeldet und die",
        "Anfrage-Cookies der Besucher ungültig. Setzen Sie es als Secret: fly secrets set SESSION_SECRET=…",
        bar,
      ].join("\n"),
    );
  }
  const bin = litestreamBinary();
  const config = path.join(tmpdir(), `anfrage-portal-litestream-${process.pid}.yml`);
  writeFileSync(config, plan.yaml, { mode: 0o600 });
  mkdirSync(path.dirname(plan.databasePath), { recursive: true });

  const hadDatabase = existsSync(plan.databasePath);
  const restore = spawnSync(
    bin,
    ["restore", "-config", config, "-if-db-not-exists", "-if-replica-exists", plan.databasePath],
    { stdio: "inherit" },
  );
  if (restore.status !== 0) {
    console.error(
      `Wiederherstellung aus dem Replikat fehlgeschlagen (Exit-Code ${restore.status}).`,
    );
    process.exit(restore.status ?? 1);
  }
  // Restored from the replica: the first sweep quarantines unreferenced uploads (ADR 085).
  if (!hadDatabase && existsSync(plan.databasePath)) {
    writeFileSync(`${plan.databasePath}.restored`, new Date().toISOString());
  }

  const server = [
    process.execPath,
    ...process.execArgv,
    path.join(import.meta.dirname, "index.ts"),
  ].map((part) => JSON.stringify(part));
  // Litestream takes this process's place (same PID: Fly's and the tests' signals reach it directly).
  replaceProcess(bin, [bin, "replicate", "-config", config, "-exec", server.join(" ")], {
    ...LITESTREAM_ENV,
    ...process.env,
  } as Record<string, string>);
}
