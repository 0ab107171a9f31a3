// `npm run lint` runs this: no source module (tests excepted) in app/, server/ or scripts/ may
// exceed MAX_LINES. The few modules that were already larger when the rule came in are listed in
// ALLOWLIST with their line count on that day as a ceiling: they may shrink, never grow. Split a
// module along its seams instead of raising a ceiling (docs/decisions/071-house-rules-in-lint.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { filesBelow } from "./files-below.ts";

export const MAX_LINES = 400;
export const SOURCE_DIRS = ["app", "server", "scripts"];

/**
 * Modules still over MAX_LINES, path → ceiling (their line count; lowered as they shrink, removed
 * once under MAX_LINES — the goal is an empty list).
 */
export const ALLOWLIST: Record<string, number> = {};

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const TEST = /\.(test|spec)\.[cm]?[jt]sx?$|\.d\.ts$/;
const SKIP_DIRS = new Set(["node_modules", "build", ".react-router", "+types"]);

export type Violation = { file: string; lines: number; limit: number };

export function countLines(text: string): number {
  if (text.length === 0) return 0;
  const lines = text.split("\n").length;
  return text.endsWith("\n") ? lines - 1 : lines;
}

function* sourceFiles(root: string, dir: string): Generator<string> {
  for (const file of filesBelow(root, dir, SKIP_DIRS)) {
    const name = path.posix.basename(file);
    if (SOURCE.test(name) && !TEST.test(name)) yield file;
  }
}

/** Every source module over its limit (MAX_LINES, or its ceiling when allowlisted). */
export function findOversizeModules(
  root: string,
  options: { dirs?: string[]; max?: number; allowlist?: Record<string, number> } = {},
): Violation[] {
  const { dirs = SOURCE_DIRS, max = MAX_LINES, allowlist = ALLOWLIST } = options;
  const violations: Violation[] = [];
  for (const dir of dirs) {
    for (const file of sourceFiles(root, dir)) {
      const lines = countLines(readFileSync(path.join(root, file), "utf8"));
      const limit = Math.max(max, allowlist[file] ?? 0);
      if (lines > limit) violations.push({ file, lines, limit });
    }
  }
  return violations.sort((a, b) => a.file.localeCompare(b.file));
}

function main() {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const violations = findOversizeModules(root);
  for (const v of violations) {
    const why = v.limit > MAX_LINES ? `its ceiling of ${v.limit}` : `${MAX_LINES}`;
    console.error(`${v.file}: ${v.lines} lines, over ${why}. Split it along its seams.`);
  }
  if (violations.length > 0) process.exit(1);
  console.log(`Module size: every source module is within ${MAX_LINES} lines (or its ceiling).`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
