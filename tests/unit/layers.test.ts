import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The layer rules live in biome.json (noRestrictedImports per folder). Each case plants one
// violating module in a temp tree that carries the real biome.json and asserts `biome lint`
// reports it; the real tree must lint clean.
const BIOME = path.resolve("node_modules/.bin/biome");

function lint(cwd: string, files: string[]) {
  return spawnSync(BIOME, ["lint", "--max-diagnostics=50", ...files], { cwd, encoding: "utf8" });
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), "layers-"));
  const config = JSON.parse(readFileSync("biome.json", "utf8"));
  config.$schema = undefined;
  config.vcs = { enabled: false };
  writeFileSync(path.join(root, "biome.json"), JSON.stringify(config));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function plant(file: string, source: string) {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), source);
  return file;
}

const cases: [string, string, string][] = [
  [
    "app/lib imports a server module",
    "app/lib/bad.ts",
    'import type { RequestJson } from "~/server/requests/serialize.server";\nexport type X = RequestJson;\n',
  ],
  [
    "app/lib imports a relative *.server module",
    "app/lib/bad-relative.ts",
    'import type { Db } from "../server/db.server";\nexport type X = Db;\n',
  ],
  [
    "app/lib imports a component",
    "app/lib/bad-component.ts",
    'import type { ButtonProps } from "~/components/ui/button";\nexport type X = ButtonProps;\n',
  ],
  [
    "a component imports a server module",
    "app/components/bad.tsx",
    'import type { AdminUser } from "~/server/accounts/auth.server";\nexport type X = AdminUser;\n',
  ],
  [
    "app/server imports a component",
    "app/server/bad.server.ts",
    'import type { ToastApi } from "~/components/ui/toast";\nexport type X = ToastApi;\n',
  ],
  [
    "server/ imports a component",
    "server/bad.ts",
    'import type { ToastApi } from "../app/components/ui/toast";\nexport type X = ToastApi;\n',
  ],
  [
    "a route imports drizzle-orm",
    "app/routes/bad-drizzle.ts",
    'import { eq } from "drizzle-orm";\nexport const x = eq;\n',
  ],
  [
    "a route imports the schema",
    "app/routes/bad-schema.ts",
    'import { requests } from "~db/schema";\nexport const x = requests;\n',
  ],
  [
    "a route imports the db module",
    "app/routes/bad-db.ts",
    'import { db } from "~/server/platform/db.server";\nexport const x = db;\n',
  ],
];

describe("layer rules (biome noRestrictedImports)", () => {
  it.each(cases)("fails when %s", (_name, file, source) => {
    const result = lint(root, [plant(file, source)]);
    expect(result.status, result.stdout + result.stderr).not.toBe(0);
    expect(result.stdout + result.stderr).toContain("noRestrictedImports");
  });

  it("allows the same imports where the layers permit them", () => {
    const ok = [
      plant(
        "app/routes/good.ts",
        'import { healthy } from "~/server/platform/health.server";\nexport const x = healthy;\n',
      ),
      plant(
        "app/components/good.tsx",
        'import type { RequestJson } from "~/lib/request-json";\nexport type X = RequestJson;\n',
      ),
      plant(
        "app/server/good.server.ts",
        'import { eq } from "drizzle-orm";\nexport const x = eq;\n',
      ),
    ];
    const result = lint(root, ok);
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it("the real tree keeps the rules", () => {
    const result = lint(process.cwd(), ["app", "server", "scripts"]);
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });
});
