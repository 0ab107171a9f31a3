import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  ALLOWLIST,
  countLines,
  findOversizeModules,
  MAX_LINES,
} from "../../scripts/check-module-size";

const lines = (n: number) =>
  `${Array.from({ length: n }, (_, i) => `export const a${i} = ${i};`).join("\n")}\n`;

let root: string | undefined;
function tree(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "module-size-"));
  root = dir;
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
}
afterEach(() => {
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

describe("module size check", () => {
  it("counts lines like wc -l, with or without a final newline", () => {
    expect(countLines("")).toBe(0);
    expect(countLines("a\nb\n")).toBe(2);
    expect(countLines("a\nb")).toBe(2);
  });

  it("flags a source module over the limit in app/, server/ and scripts/", () => {
    const dir = tree({
      "app/lib/ok.ts": lines(MAX_LINES),
      "app/lib/big.ts": lines(MAX_LINES + 1),
      "server/big.ts": lines(MAX_LINES + 5),
      "scripts/big.mjs": lines(MAX_LINES + 2),
    });
    expect(findOversizeModules(dir, { allowlist: {} })).toEqual([
      { file: "app/lib/big.ts", lines: MAX_LINES + 1, limit: MAX_LINES },
      { file: "scripts/big.mjs", lines: MAX_LINES + 2, limit: MAX_LINES },
      { file: "server/big.ts", lines: MAX_LINES + 5, limit: MAX_LINES },
    ]);
  });

  it("ignores tests, other folders and non-source files", () => {
    const dir = tree({
      "app/lib/big.test.ts": lines(900),
      "app/components/x.test.tsx": lines(900),
      "tests/e2e/big.spec.ts": lines(900),
      "app/data.json": lines(900),
    });
    expect(findOversizeModules(dir, { allowlist: {} })).toEqual([]);
  });

  it("lets an allowlisted module shrink but not grow past its ceiling", () => {
    const at = tree({ "app/routes/old.tsx": lines(450) });
    expect(findOversizeModules(at, { allowlist: { "app/routes/old.tsx": 450 } })).toEqual([]);
    expect(findOversizeModules(at, { allowlist: { "app/routes/old.tsx": 449 } })).toEqual([
      { file: "app/routes/old.tsx", lines: 450, limit: 449 },
    ]);
  });

  it("passes on the real tree, and every allowlisted module is still over the limit or gone", () => {
    expect(findOversizeModules(process.cwd())).toEqual([]);
    for (const ceiling of Object.values(ALLOWLIST)) expect(ceiling).toBeGreaterThan(MAX_LINES);
  });

  it("exits non-zero from the command line when a module is too big", () => {
    // A copy of the real script (and the walk it imports) in a temp tree: it takes the root from
    // its own location.
    const dir = tree({
      "scripts/check-module-size.ts": readFileSync("scripts/check-module-size.ts", "utf8"),
      "scripts/files-below.ts": readFileSync("scripts/files-below.ts", "utf8"),
      "app/huge.ts": lines(MAX_LINES + 1),
    });
    const result = spawnSync(process.execPath, [path.join(dir, "scripts/check-module-size.ts")], {
      encoding: "utf8",
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(`app/huge.ts: ${MAX_LINES + 1} lines`);
  });
});
