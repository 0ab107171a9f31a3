import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import {
  LITESTREAM_ENV,
  missingRuntime,
  NODE_FLAGS,
  RUNTIME_ENV,
  runtimeArgs,
  runtimeEnv,
} from "../../server/runtime.ts";

type Probe = { pid: number; execArgv: string[]; mallocArenaMax: string | null; argv: string[] };

/** Starts tests/fixtures/runtime-probe.ts the way the Dockerfile starts the launcher (no flags). */
function probe(execArgv: string[], env: Record<string, string | undefined>) {
  const child = spawn(
    process.execPath,
    [...execArgv, "tests/fixtures/runtime-probe.ts", "extra-arg"],
    { env: env as NodeJS.ProcessEnv },
  );
  let out = "";
  child.stdout.on("data", (d) => {
    out += d;
  });
  return new Promise<{ pid: number | undefined; probe: Probe }>((resolve, reject) => {
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve({ pid: child.pid, probe: JSON.parse(out) }) : reject(new Error(out)),
    );
  });
}

const bareEnv = () => {
  const env: Record<string, string | undefined> = { ...process.env };
  delete env.NODE_OPTIONS;
  for (const name of Object.keys(RUNTIME_ENV)) delete env[name];
  return env;
};

describe("the production runtime (server/runtime.ts, ADR 165)", () => {
  it("caps the V8 heap for the 256 MB machine and limits malloc arenas", () => {
    expect(NODE_FLAGS).toContain("--max-old-space-size=96");
    expect(NODE_FLAGS).toContain("--max-semi-space-size=4");
    expect(NODE_FLAGS).toContain("--no-allocation-site-pretenuring");
    expect(NODE_FLAGS).toContain("--heap-growing-percent=80");
    expect(RUNTIME_ENV).toEqual({ MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "16384" });
    expect(LITESTREAM_ENV).toEqual({ GOMEMLIMIT: "16MiB" });
    expect(runtimeArgs("x.js", "a")).toEqual([...NODE_FLAGS, "x.js", "a"]);
    expect(runtimeEnv({ A: "1" })).toEqual({ A: "1", ...RUNTIME_ENV });
    expect(runtimeEnv({ MALLOC_ARENA_MAX: "4" }).MALLOC_ARENA_MAX).toBe("4");
  });

  it("lists only what is missing, keeping what the operator set", () => {
    expect(missingRuntime([], {})).toEqual({ flags: [...NODE_FLAGS], env: { ...RUNTIME_ENV } });
    expect(missingRuntime([...NODE_FLAGS], { ...RUNTIME_ENV })).toBeUndefined();
    // A bigger machine: the operator's own old-space size wins, in either spelling or place.
    expect(
      missingRuntime(["--max_old_space_size=400"], {
        MALLOC_ARENA_MAX: "8",
        MALLOC_MMAP_THRESHOLD_: "131072",
      }),
    ).toEqual({
      flags: [
        "--max-semi-space-size=4",
        "--no-allocation-site-pretenuring",
        "--heap-growing-percent=80",
      ],
      env: {},
    });
    expect(
      missingRuntime([], { NODE_OPTIONS: "--max-old-space-size=400  --max-semi-space-size=8" }),
    ).toEqual({
      flags: ["--no-allocation-site-pretenuring", "--heap-growing-percent=80"],
      env: { ...RUNTIME_ENV },
    });
    // A negated flag and its positive spelling name the same setting: the operator's wins.
    expect(missingRuntime(["--allocation_site_pretenuring"], { ...RUNTIME_ENV })).toEqual({
      flags: ["--max-old-space-size=96", "--max-semi-space-size=4", "--heap-growing-percent=80"],
      env: {},
    });
  });

  it("re-executes the process in place (same PID) with the flags, environment and arguments", async () => {
    const { pid, probe: started } = await probe([], bareEnv());
    expect(started.pid).toBe(pid);
    expect(started.execArgv).toEqual(expect.arrayContaining([...NODE_FLAGS]));
    expect(started.mallocArenaMax).toBe("2");
    expect(started.argv).toEqual(["extra-arg"]);
  });

  it("adds only what is missing, keeping the operator's own settings", async () => {
    const { probe: started } = await probe(["--max-old-space-size=300"], {
      ...bareEnv(),
      MALLOC_ARENA_MAX: "1",
    });
    expect(started.execArgv).toEqual([
      "--max-semi-space-size=4",
      "--no-allocation-site-pretenuring",
      "--heap-growing-percent=80",
      "--max-old-space-size=300",
    ]);
    expect(started.mallocArenaMax).toBe("1");
  });

  it("leaves a process that already has the runtime as it is", async () => {
    const flags = [
      "--max-semi-space-size=4",
      "--max-old-space-size=300",
      "--allocation-site-pretenuring",
      "--heap-growing-percent=50",
    ];
    const { probe: started } = await probe(flags, { ...bareEnv(), ...RUNTIME_ENV });
    expect(started.execArgv).toEqual(flags);
  });
});
