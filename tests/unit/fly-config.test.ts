import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/server/env.server";

type FlyConfig = {
  primary_region: string;
  kill_signal: string;
  env: Record<string, string>;
  mounts: { source: string; destination: string }[];
  http_service: {
    internal_port: number;
    checks: { path: string; method: string }[];
    auto_stop_machines: string | boolean;
    min_machines_running: number;
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
  it("is never stopped at zero traffic and keeps 512 MB", () => {
    expect(fly.http_service.min_machines_running).toBe(1);
    expect(["off", false]).toContain(fly.http_service.auto_stop_machines);
    expect(fly.vm[0].memory).toBe("512mb");
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

describe("metrics", () => {
  it("are scraped from the internal metrics port, not the public one", () => {
    const env = parseEnv({ ...fly.env, SESSION_SECRET: "x" });
    expect(fly.metrics).toEqual({ port: env.METRICS_PORT, path: "/metrics" });
    expect(fly.metrics.port).not.toBe(fly.http_service.internal_port);
  });
});
