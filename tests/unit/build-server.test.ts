import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

// `npm run build` writes build-server/ (ADR 132): every server module, as JavaScript that imports
// its siblings as .js, so production runs without Node's type stripping; beside them the app's env
// parser (app/server/env.server.ts), which the launcher reads its configuration with.
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
});
