import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/server/platform/env.server";
import { REQUEST_QUEUE_MAX } from "../../server/concurrency.ts";

type FlyConfig = {
  primary_region: string;
  swap_size_mb: number;
  kill_signal: string;
  env: Record<string, string>;
  mounts: { source: string; destination: string }[];
  http_service: {
    internal_port: number;
    checks: { path: string; method: string }[];
    auto_stop_machines: string | boolean;
    min_machines_running: number;
    concurrency: { type: string; soft_limit: number; hard_limit: number };
  };
  vm: { memory: string }[];
  metrics: { port: number; path: string };
};

const fly = parse(readFileSync("fly.toml", "utf8")) as unknown as FlyConfig;

describe("fly.toml agrees with the env module", () => {
  it("keeps the database and uploads on the volume", () => {
    const mount = fly.mounts[0];
    expect(mount.source).toBe("data");
    expect(path.dirname(fly.env.DATABASE_PATH)).toBe(mount.destination);
    expect(fly.env.UPLOADS_DIR.startsWith(`${mount.destination}/`)).toBe(true);
  });

  it("routes traffic to the server's port and checks /healthz", () => {
    const env = parseEnv({ ...fly.env, SESSION_SECRET: "x" });
    expect(fly.http_service.internal_port).toBe(env.PORT);
    expect(fly.http_service.checks.map((c) => c.path)).toContain("/healthz");
    expect(env.TRUST_PROXY).toBe("fly");
    expect(env.NODE_ENV).toBe("production");
  });

  it("runs in Frankfurt and stops gracefully on SIGTERM", () => {
    expect(fly.primary_region).toBe("fra");
    expect(fly.kill_signal).toBe("SIGTERM");
  });
});

describe("the single machine keeps running (ADR 092)", () => {
  it("is never stopped at zero traffic", () => {
    expect(fly.http_service.min_machines_running).toBe(1);
    expect(["off", false]).toContain(fly.http_service.auto_stop_machines);
  });

  it("builds on the Node version pinned in package.json and starts through the launcher", () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as {
      devDependencies: Record<string, string>;
    };
    const dockerfile = readFileSync("Dockerfile", "utf8");
    const images = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) expect(image).toBe(`node:${pkg.devDependencies.node}-slim`);
    // The launcher compiled by `npm run build` (server/launch.ts without types, ADR 132).
    expect(dockerfile).toMatch(/^RUN npm run build$/m);
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/build-server \.\/build-server$/m);
    expect(dockerfile).toMatch(/^CMD \[.*"build-server\/launch\.js"\]$/m);
    // The runtime flags live in server/runtime.ts only (the launcher applies them, ADR 165).
    expect(dockerfile).not.toMatch(/--max-(old|semi)-space-size|MALLOC_ARENA_MAX/);
  });
});

describe("memory on a 256 MB machine (ADRs 195, 196)", () => {
  it("asks for 256 MB with swap as a safety net", () => {
    expect(fly.vm[0].memory).toBe("256mb");
    expect(fly.swap_size_mb).toBeGreaterThanOrEqual(256);
  });

  it("never lets through more requests than the server works on plus its queue", () => {
    // Behind Fly's proxy the server never answers 503 for a full queue; memory was measured at
    // the hard limit with MAX_CONCURRENT_REQUESTS working at once (docs/benchmarks.md).
    const env = parseEnv({ ...fly.env, SESSION_SECRET: "x" });
    const { concurrency } = fly.http_service;
    expect(concurrency.type).toBe("requests");
    expect(env.MAX_CONCURRENT_REQUESTS).toBeGreaterThan(0);
    expect(env.MAX_CONCURRENT_REQUESTS).toBeLessThanOrEqual(16);
    expect(concurrency.hard_limit).toBeLessThanOrEqual(
      env.MAX_CONCURRENT_REQUESTS + REQUEST_QUEUE_MAX,
    );
    expect(concurrency.hard_limit).toBeLessThanOrEqual(250);
  });
});

describe("metrics", () => {
  it("are scraped from the internal metrics port, not the public one", () => {
    const env = parseEnv({ ...fly.env, SESSION_SECRET: "x" });
    expect(fly.metrics).toEqual({ port: env.METRICS_PORT, path: "/metrics" });
    expect(fly.metrics.port).not.toBe(fly.http_service.internal_port);
  });
});
