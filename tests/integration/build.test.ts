import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// The integration globalSetup builds inside Vitest (NODE_ENV=test): the bundle it makes must still be
// the production build that e2e and `npm start` serve, not a development one.
describe("the build the tests run against", () => {
  it("is a production build (no development JSX runtime in the client bundle)", () => {
    const assets = path.resolve(process.env.BUILD_DIR ?? "build", "client/assets");
    const scripts = readdirSync(assets).filter((f) => f.endsWith(".js"));
    expect(scripts.length).toBeGreaterThan(0);
    const dev = scripts.filter((f) =>
      readFileSync(path.join(assets, f), "utf8").includes("jsxDEV"),
    );
    expect(dev).toEqual([]);
  });

  // ADR 185: V8 keeps every script's source in the heap; one character above U+00FF stores a whole
  // chunk two bytes per character, and Zod's ~100 ESM files loaded from node_modules cost 1.5 MB.
  it("has a server bundle in ASCII that imports no zod or @conform-to from node_modules", () => {
    const server = path.resolve(process.env.BUILD_DIR ?? "build", "server");
    const chunks = [
      "index.js",
      ...readdirSync(path.join(server, "assets")).map((f) => `assets/${f}`),
    ].filter((f) => f.endsWith(".js"));
    const offending = chunks.filter((f) => {
      const code = readFileSync(path.join(server, f), "utf8");
      return /[\u0080-\uffff]/.test(code) || /from\s*["'](zod|@conform-to\/)/.test(code);
    });
    expect(chunks.length).toBeGreaterThan(1);
    expect(offending).toEqual([]);
  });
});
