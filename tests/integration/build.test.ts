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
});
