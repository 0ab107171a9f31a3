// `npm start`: build the app when build/ or build-server/ is missing or older than the sources
// (scripts/build-freshness.ts; SKIP_BUILD=1 never builds), then become the production server
// through build-server/launch.js (execve: this process is replaced, no idle Node parent stays
// behind). The launcher applies the runtime flags (server/runtime.ts, ADR 165) and Litestream
// replication when LITESTREAM_REPLICA_URL or BUCKET_NAME is set. A second start of an unchanged
// tree serves at once (ADR 331).
import { spawnSync } from "node:child_process";
import { staleBuildReason, staleServerBuildReason } from "./build-freshness.ts";

if (process.env.SKIP_BUILD !== "1") {
  const root = process.cwd();
  const stale = staleBuildReason(root) ?? staleServerBuildReason(root);
  if (stale) {
    console.log(`npm start: building first (${stale}).`);
    const result = spawnSync("npm", ["run", "build"], { stdio: "inherit" });
    if (result.status !== 0) process.exit(result.status ?? 1);
  } else {
    console.log("npm start: build/ and build-server/ are up to date.");
  }
}
process.execve(process.execPath, [process.execPath, "build-server/launch.js"], {
  NODE_ENV: "production",
  ...process.env,
});
