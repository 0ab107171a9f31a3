import { statfsSync } from "node:fs";
import { env } from "./env.server";
import { registerTestHooks } from "./test-hooks.server";

/** Reads the free bytes of the volume holding `dir`; replaceable in tests (testHooks.setFreeDiskReader). */
type FreeDiskReader = (dir: string) => number;

const statfsReader: FreeDiskReader = (dir) => {
  const stats = statfsSync(dir);
  return Number(stats.bavail) * Number(stats.bsize);
};
let reader: FreeDiskReader = statfsReader;

registerTestHooks({
  setFreeDiskReader(next?: FreeDiskReader) {
    reader = next ?? statfsReader;
  },
});

/** Free bytes on the data volume (database and, when local, uploads); Infinity when unreadable. */
export function freeDiskBytes(): number {
  try {
    return reader(env().DATA_DIR);
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** Below DISK_MIN_FREE_MB the text of a submission is still saved, its files are refused (ADR 096). */
export function diskLow(): boolean {
  return freeDiskBytes() < env().DISK_MIN_FREE_MB * 1024 * 1024;
}
