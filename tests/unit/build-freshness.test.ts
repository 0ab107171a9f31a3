import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  newestInput,
  staleBuildReason,
  staleServerBuildReason,
} from "../../scripts/build-freshness.ts";

let root: string;
const T0 = new Date("2026-11-23T10:00:00Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

function file(rel: string, when: Date, text = "x") {
  const full = path.join(root, rel);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  utimesSync(full, when, when);
}

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "build-fresh-"));
  file("app/routes/home.tsx", at(0));
  file("server/app.ts", at(0));
  file("db/schema.ts", at(0));
  file("vite.config.ts", at(0));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe("build staleness", () => {
  it("reports a missing build", () => {
    expect(staleBuildReason(root, "build")).toBe("build/ is missing");
  });

  it("accepts a build newer than every input", () => {
    file("build/server/index.js", at(5));
    expect(staleBuildReason(root, "build")).toBeNull();
  });

  it.each([
    ["a route", "app/routes/home.tsx"],
    ["a server module in a nested folder", "app/server/mail/outbox.server.ts"],
    ["the Express server", "server/app.ts"],
    ["the schema", "db/schema.ts"],
    ["a config file", "vite.config.ts"],
    ["package.json", "package.json"],
  ])("detects %s edited after the build", (_name, rel) => {
    file("build/server/index.js", at(5));
    file(rel, at(6));
    expect(staleBuildReason(root, "build")).toBe(`${rel} is newer than build/`);
  });

  it("ignores tests and SQLite files next to the sources", () => {
    file("build/server/index.js", at(5));
    file("app/lib/format.test.ts", at(9));
    file("db/local.sqlite", at(9));
    expect(staleBuildReason(root, "build")).toBeNull();
    expect(newestInput(root)?.mtimeMs).toBe(at(0).getTime());
  });

  it("honours another build folder", () => {
    file("build-other/server/index.js", at(5));
    expect(staleBuildReason(root, "build-other")).toBeNull();
    expect(staleBuildReason(root, "build")).toBe("build/ is missing");
  });
});

describe("build-server staleness (npm start)", () => {
  it("reports a missing build-server/ and accepts one newer than every input", () => {
    expect(staleServerBuildReason(root)).toBe("build-server/ is missing");
    file("build-server/launch.js", at(5));
    expect(staleServerBuildReason(root)).toBeNull();
  });

  it.each([
    ["the Express server", "server/launch.ts"],
    ["the env parser it bundles", "app/server/platform/env.server.ts"],
    ["its build script", "scripts/build-server.ts"],
  ])("detects %s edited after the build", (_name, rel) => {
    file("build-server/launch.js", at(5));
    file(rel, at(6));
    expect(staleServerBuildReason(root)).toBe(`${rel} is newer than build-server/`);
  });
});
