// The tree walk of the scripts that look at the source (module sizes, build freshness).
import { readdirSync } from "node:fs";
import path from "node:path";

/**
 * Every file below `dir` (a path relative to `root`; yielded relative to `root`, "/"-separated),
 * depth first in directory order, not entering folders named in `skipDirs`; a missing or
 * unreadable folder yields nothing.
 */
export function* filesBelow(
  root: string,
  dir: string,
  skipDirs: ReadonlySet<string>,
): Generator<string> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skipDirs.has(entry.name)) yield* filesBelow(root, rel, skipDirs);
    } else if (entry.isFile()) {
      yield rel;
    }
  }
}
