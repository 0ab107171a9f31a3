// `npm run test:e2e`: Playwright against the production build (built first when missing).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";

const buildDir = process.env.BUILD_DIR ?? "build";
if (!existsSync(path.join(buildDir, "server/index.js"))) {
  const built = spawnSync("npx", ["react-router", "build"], { stdio: "inherit" });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
// One id per run: the stack and the test workers derive the same fresh data folder from it.
const env = { ...process.env, E2E_RUN_ID: process.env.E2E_RUN_ID ?? String(Date.now()) };
const result = spawnSync("npx", ["playwright", "test", ...process.argv.slice(2)], {
  stdio: "inherit",
  env,
});
process.exit(result.status ?? 1);
