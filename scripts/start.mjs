// `npm start`: build the app (skip with SKIP_BUILD=1), then become the production server through
// build-server/launch.js (execve: this process is replaced, no idle Node parent stays behind). The
// launcher applies the runtime flags (server/runtime.ts, ADR 165) and Litestream replication when
// LITESTREAM_REPLICA_URL or BUCKET_NAME is set.
import { spawnSync } from "node:child_process";

if (process.env.SKIP_BUILD !== "1") {
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
process.execve(process.execPath, [process.execPath, "build-server/launch.js"], {
  NODE_ENV: "production",
  ...process.env,
});
