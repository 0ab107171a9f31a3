// `npm start`: build the app (skip with SKIP_BUILD=1), then serve it in production mode through
// server/launch.ts (Litestream replication when LITESTREAM_REPLICA_URL or BUCKET_NAME is set).
import { spawnSync } from "node:child_process";

if (process.env.SKIP_BUILD !== "1") {
  const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
// A small young generation keeps memory flat while large uploads stream through (docs/benchmarks.md);
// the old generation is capped for a 256 MB machine, not sized from the host's memory (ADR 132).
const server = spawnSync(
  process.execPath,
  ["--max-semi-space-size=4", "--max-old-space-size=112", "build-server/launch.js"],
  {
    stdio: "inherit",
    env: { NODE_ENV: "production", ...process.env },
  },
);
process.exit(server.status ?? 0);
