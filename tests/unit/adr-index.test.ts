import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const DIR = path.resolve(import.meta.dirname, "../../docs/decisions");
const records = readdirSync(DIR).filter((f) => /^\d{3}-.+\.md$/.test(f) && !f.startsWith("000-"));
const index = readFileSync(path.join(DIR, "README.md"), "utf8");

describe("architecture decision records", () => {
  it("exist, with a template and an index", () => {
    expect(records.length).toBeGreaterThan(0);
    expect(readdirSync(DIR)).toContain("000-template.md");
  });

  it.each(records)("%s has a Date and a Status line and is listed in the index", (file) => {
    const text = readFileSync(path.join(DIR, file), "utf8");
    expect(text).toMatch(/^# \d{3}\b/);
    expect(text).toMatch(/^Date: \d{4}-\d{2}-\d{2}$/m);
    expect(text).toMatch(/^Status: \S.*$/m);
    expect(index).toContain(`(${file})`);
  });

  it("lists no record that does not exist", () => {
    const linked = [...index.matchAll(/\]\((\d{3}-[^)]+\.md)\)/g)].map((m) => m[1]);
    expect(linked.filter((file) => !records.includes(file))).toEqual([]);
  });
});
