// `npm run test:e2e`: Playwright against the production build (rebuilt first when it is missing
// or older than the sources, like the integration tests do: scripts/build-freshness.ts).
import { spawnSync } from "node:child_process";
import { staleBuildReason } from "../../scripts/build-freshness.ts";

const stale = staleBuildReason(process.cwd());
if (stale) {
  console.log(`e2e: building first (${stale}).`);
  const built = spawnSync("npx", ["react-router", "build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
// One id per run: the stack and the test workers derive the same fresh data folder from it.
const env = { ...process.env, E2E_RUN_ID: process.env.E2E_RUN_ID ?? String(Date.now()) };
const result = spawnSync("npx", ["playwright", "test", ...process.argv.slice(2)], {
  stdio: "inherit",
  env,
});
process.exit(result.status ?? 1);
