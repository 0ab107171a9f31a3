// The one place for how the production server process is started (ADR 165): the V8 flags and the
// allocator setting. build-server/launch.js applies them to itself (re-exec in place, same PID), so
// `npm start`, `npm run serve`, the Dockerfile and the bench servers all get them by starting the
// launcher; the e2e stack passes them when it starts server/index.ts. Sized for fly.toml's 256 MB
// machine (ADR 196: server ≤ 160 MB peak under load, Litestream ~50 MB, kernel and init ~25–30 MB;
// the requests in work at once are bounded, ADR 195; flags re-measured under wrk, ADR 297).

/**
 * - The old generation is capped for the VM instead of being sized from the host's memory (ADR 132):
 *   the server's live heap is ~40–55 MB under load. 96 MB, not 112 (ADR 297): under 20 keep-alive
 *   connections on `/` V8 let the old generation grow to its limit heuristics (V8 pages 78–91 MB at
 *   the peak, 73 MB with 96); 80 cost 22–28 % more CPU per request on bench:load's admin mix.
 * - A small young generation keeps memory flat while uploads stream through: 4 MB semi-spaces.
 *   2 MB (tried in ADR 301) took wrk's peak on `/` from 136–143 to 129–132 MB but cost the admin
 *   pages at 1M requests 10–20 % more CPU and ~10 ms of p95 (more of a page's objects promoted).
 * - No allocation-site pretenuring (ADR 303): V8 allocates the objects of a site whose objects
 *   survived straight in the old generation. After the dashboard, a site the API list shares was
 *   pretenured and the list's short-lived rows went to the old generation (~350 KB per scavenge
 *   instead of 17 KB): a full collection every ~10 requests, the API list's p95 45 ms instead of 29.
 * - The old generation grows by 80 % of what survived before V8 starts marking again (ADR 303
 *   addendum): with its own factor (~1.4 at a 28 MB live heap) the limit sat so close that
 *   incremental marking restarted every ~10 API-list requests (15 full collections in 110
 *   requests, p95 52–57 ms; 6 and 30–36 ms with 80 %). `wrk`'s peak: 153–155 MB (≤ 160).
 */
export const NODE_FLAGS: readonly string[] = [
  "--max-old-space-size=96",
  "--max-semi-space-size=4",
  "--no-allocation-site-pretenuring",
  "--heap-growing-percent=80",
];

/**
 * glibc malloc: every thread that allocates gets its own arena (64 MB reservations; V8's compiler and
 * GC threads, libuv's pool): under load ~26 MB of RSS sat in eight arenas, mostly free fragments —
 * two arenas for the process. And blocks of 64 KB and more (zlib states, Buffers) are mmap'd and
 * returned on free, instead of the threshold creeping up to 32 MB and such blocks fragmenting
 * the heap. Measured: 15–25 MB less peak RSS, CPU per request unchanged (docs/benchmarks.md).
 * 16 KB rather than 64 KB (ADR 297): the landing page's 31 KB response bodies and render buffers,
 * hundreds a second, otherwise left the main arena at 18–34 MB at the peak instead of 11–15 MB.
 */
export const RUNTIME_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: "2",
  MALLOC_MMAP_THRESHOLD_: "16384",
};

/**
 * Litestream (Go) sizes its heap by GOGC alone and held ~40 MB anonymous memory under load; a soft
 * limit makes it collect earlier (measured: peak 47–48 MB instead of 57–62 MB). An operator's own
 * GOMEMLIMIT / GOGC wins.
 */
export const LITESTREAM_ENV: Readonly<Record<string, string>> = { GOMEMLIMIT: "16MiB" };

type Env = Record<string, string | undefined>;

/** `--max_old_space_size=1` and `--max-old-space-size 1` name the same flag; so do `--no-x` and `--x`. */
const flagName = (arg: string) =>
  arg
    .split("=")[0]
    .replace(/_/g, "-")
    .replace(/^--no-/, "--");

/**
 * What a process started with `execArgv` and `env` lacks of NODE_FLAGS / RUNTIME_ENV; a flag or
 * variable the operator gave (on the command line, in NODE_OPTIONS or the environment) is kept.
 * undefined when nothing is missing.
 */
export function missingRuntime(
  execArgv: readonly string[],
  env: Env,
): { flags: string[]; env: Record<string, string> } | undefined {
  const given = new Set(
    [...execArgv, ...(env.NODE_OPTIONS ?? "").split(/\s+/)].filter(Boolean).map(flagName),
  );
  const flags = NODE_FLAGS.filter((flag) => !given.has(flagName(flag)));
  const vars = Object.fromEntries(
    Object.entries(RUNTIME_ENV).filter(([name]) => env[name] === undefined),
  );
  if (flags.length === 0 && Object.keys(vars).length === 0) return undefined;
  return { flags, env: vars };
}

/** The arguments to start `script` with the production runtime, for spawn(process.execPath, …). */
export const runtimeArgs = (script: string, ...args: string[]) => [...NODE_FLAGS, script, ...args];

/** The environment for such a start: `env` with RUNTIME_ENV filled in where unset. */
export const runtimeEnv = (env: Env): Env => ({ ...RUNTIME_ENV, ...env });

/**
 * Replaces this process (same PID, no parent left behind) with itself started with the missing
 * flags and environment; returns when nothing is missing. Nothing has been allocated yet that
 * matters: it runs first in build-server/launch.js.
 */
export function applyRuntime(): void {
  const missing = missingRuntime(process.execArgv, process.env);
  if (!missing) return;
  replaceProcess(
    process.execPath,
    [process.execPath, ...missing.flags, ...process.execArgv, ...process.argv.slice(1)],
    { ...process.env, ...missing.env } as Record<string, string>,
  );
}

/** execve(2): `file` takes this process's place (same PID); never returns. POSIX only (Node ≥ 23.11). */
export function replaceProcess(
  file: string,
  args: string[],
  env: Record<string, string> = process.env as Record<string, string>,
): never {
  if (!process.execve) throw new Error("process.execve fehlt (Linux mit Node ≥ 24 nötig).");
  process.execve(file, args, env);
  throw new Error(`execve ${file} kehrte zurück`);
}
