// Vitest globalSetup of the integration project: the tests load the production build, so build
// it first when it is missing or older than any source or config file (scripts/build-freshness.ts).
import { spawnSync } from "node:child_process";
import { staleBuildReason } from "../../scripts/build-freshness.ts";

export default function setup() {
  const reason = staleBuildReason(process.cwd());
  if (!reason) return;
  console.log(`Integration tests: building first (${reason}).`);
  const built = spawnSync("npx", ["react-router", "build"], {
    stdio: "inherit",
    // Vitest sets NODE_ENV=test; a build made with it ships React's development client, which
    // logs hydration warnings the e2e tests treat as errors. Always build for production.
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (built.status !== 0) throw new Error(`react-router build failed (exit ${built.status})`);
}
