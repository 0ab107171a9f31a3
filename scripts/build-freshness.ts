// Is the production build older than the code it was built from? Shared by the Vitest
// globalSetup of the integration project (tests/setup/build.global.ts), `npm run test:e2e`
// (tests/e2e/run.mjs) and `npm start` (scripts/start.mjs), so no run tests or serves stale code
// and none builds what is already built. See docs/decisions/070-test-harness.md and ADR 331.
import { statSync } from "node:fs";
import path from "node:path";
import { filesBelow } from "./files-below.ts";

export type BuildInputs = { dirs: string[]; files: string[] };

/** What the build is made from: these folders (tests excepted) and config files. */
export const BUILD_INPUTS: BuildInputs = {
  dirs: ["app", "server", "db", "public"],
  files: [
    "package.json",
    "package-lock.json",
    "vite.config.ts",
    "react-router.config.ts",
    "tsconfig.json",
  ],
};

const IGNORED_DIRS = new Set(["node_modules", ".react-router"]);
const IGNORED_FILE = /\.(test|spec)\.[cm]?[jt]sx?$|\.sqlite(-\w+)?$|\.md$/;

function mtime(file: string): number | null {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

/** The newest input file and its mtime (ms), or null when there is none. */
export function newestInput(
  root: string,
  inputs = BUILD_INPUTS,
): { file: string; mtimeMs: number } | null {
  let newest: { file: string; mtimeMs: number } | null = null;
  const consider = (file: string) => {
    const m = mtime(path.join(root, file));
    if (m !== null && (!newest || m > newest.mtimeMs)) newest = { file, mtimeMs: m };
  };
  for (const dir of inputs.dirs) {
    for (const file of filesBelow(root, dir, IGNORED_DIRS))
      if (!IGNORED_FILE.test(path.posix.basename(file))) consider(file);
  }
  for (const file of inputs.files) consider(file);
  return newest;
}

/** Why the output whose age is `marker`'s mtime must be rebuilt, or null when it is up to date. */
function staleOutputReason(root: string, marker: string, label: string, inputs: BuildInputs) {
  const built = mtime(path.resolve(root, marker));
  if (built === null) return `${label} is missing`;
  const newest = newestInput(root, inputs);
  if (newest && newest.mtimeMs > built) return `${newest.file} is newer than ${label}`;
  return null;
}

/**
 * Why the build in `buildDir` must be rebuilt ("missing", or the input newer than it), or null
 * when it is up to date. The build's age is its server bundle's mtime.
 */
export function staleBuildReason(
  root: string,
  buildDir = process.env.BUILD_DIR ?? "build",
  inputs = BUILD_INPUTS,
): string | null {
  return staleOutputReason(root, path.join(buildDir, "server/index.js"), `${buildDir}/`, inputs);
}

/** What build-server/ is made from besides the app's inputs: its own build script. */
export const SERVER_BUILD_INPUTS: BuildInputs = {
  dirs: BUILD_INPUTS.dirs,
  files: [...BUILD_INPUTS.files, "scripts/build-server.ts"],
};

/**
 * Why build-server/ (`npm run build`'s second part: server/*.ts as plain JavaScript, ADR 132) must
 * be rebuilt, or null. Its age is the launcher's mtime.
 */
export function staleServerBuildReason(root: string, inputs = SERVER_BUILD_INPUTS): string | null {
  return staleOutputReason(root, "build-server/launch.js", "build-server/", inputs);
}
