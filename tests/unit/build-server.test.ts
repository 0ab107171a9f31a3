import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";

// `npm run build` writes build-server/ (ADR 132): every server module, as JavaScript that imports
// its siblings as .js, so production runs without Node's type stripping; beside them the app's env
// parser (app/server/platform/env.server.ts), which the launcher reads its configuration with.
describe("build-server", () => {
  it("has every server module, with no type syntax and .js specifiers", () => {
    execFileSync(process.execPath, ["scripts/build-server.ts"], { stdio: "ignore" });
    const sources = readdirSync("server").filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "dev.ts",
    );
    const built = readdirSync("build-server").filter((f) => f.endsWith(".js"));
    expect(built.sort()).toEqual(
      [...sources.map((f) => f.replace(/\.ts$/, ".js")), "env.server.js"].sort(),
    );
    for (const file of built) {
      const code = readFileSync(`build-server/${file}`, "utf8");
      expect(code).not.toMatch(/["']\.\/[\w-]+\.ts["']/);
      expect(code).not.toMatch(/^import type /m);
      expect(code).not.toMatch(/["']\.\.\/app\//);
    }
    const launch = readFileSync("build-server/launch.js", "utf8");
    expect(launch).toContain('await import("./index.js")');
    expect(launch).toContain('path.join(import.meta.dirname, "index.js")');
    expect(launch).toContain('from "./env.server.js"');
  });

  // The migration child starts on every boot before the gate opens (ADR 296): drizzle-orm bundled
  // in, never imported from node_modules (its ESM files cost 1.2 s and 250 MB RSS there).
  it("bundles drizzle-orm into the migration child, which migrates a new database", () => {
    const code = readFileSync("build-server/migrate-worker.js", "utf8");
    expect(code).not.toMatch(/^import\b.*["']drizzle-orm/m);
    expect(code).toMatch(/^import \w+ from "better-sqlite3";$/m);
    // The launcher's first import, zod inside likewise.
    expect(readFileSync("build-server/env.server.js", "utf8")).not.toMatch(/^import\b.*["']zod/m);
    const dir = mkdtempSync(path.join(tmpdir(), "migrate-child-"));
    try {
      const databasePath = path.join(dir, "db.sqlite");
      const out = execFileSync(process.execPath, [
        "build-server/migrate-worker.js",
        JSON.stringify({ databasePath, migrationsFolder: "db/migrations" }),
      ]).toString();
      expect(JSON.parse(out.trim())).toEqual({ ms: expect.any(Number) });
      const sqlite = new Database(databasePath, { readonly: true });
      const applied = sqlite.prepare("SELECT count(*) AS n FROM __drizzle_migrations").get();
      sqlite.close();
      const journal = JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8"));
      expect(applied).toEqual({ n: journal.entries.length });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
