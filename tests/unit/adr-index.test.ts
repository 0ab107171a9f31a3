import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DIR = path.join(ROOT, "docs/decisions");
const records = readdirSync(DIR).filter((f) => /^\d{3}-.+\.md$/.test(f) && !f.startsWith("000-"));
const index = readFileSync(path.join(DIR, "README.md"), "utf8");
const read = (file: string) => readFileSync(path.join(DIR, file), "utf8");

/** The index rows: number, title, file, date, status, in force. */
const rows = [
  ...index.matchAll(
    /^\| (\d{3}) \| \[(.+)\]\((\d{3}-[^)]+\.md)\) \| ([^|]+) \| ([^|]+) \| ([^|]+) \|$/gm,
  ),
].map(([, number, title, file, date, status, inForce]) => ({
  number,
  title,
  file,
  date: date.trim(),
  status: status.trim(),
  inForce: inForce.trim(),
}));
/** The records a status names after a word: "amends 120, 126", "amended by 306, 316". */
const named = (status: string, word: RegExp) =>
  [...status.matchAll(new RegExp(`${word.source} ((?:\\d{3}(?:, | and )?)+)`, "gi"))].flatMap(
    ([, list]) => list.match(/\d{3}/g) ?? [],
  );

/** "# 080: Title", "# 091 Title" and "# 120 — Title" all name the title "Title". */
const headingTitle = (text: string) => /^# \d{3}\s*[—–:-]?\s*(.+)$/m.exec(text)?.[1].trim();
const statusOf = (text: string) => /^Status: (.+)$/m.exec(text)?.[1].trim() ?? "";

describe("architecture decision records", () => {
  it("exist, with a template and an index", () => {
    expect(records.length).toBeGreaterThan(0);
    expect(readdirSync(DIR)).toContain("000-template.md");
  });

  it.each(records)("%s has a Date and a Status line and is listed in the index", (file) => {
    const text = read(file);
    expect(text).toMatch(/^# \d{3}\b/);
    expect(text).toMatch(/^Date: \d{4}-\d{2}-\d{2}$/m);
    expect(text).toMatch(/^Status: \S.*$/m);
    expect(index).toContain(`(${file})`);
  });

  it("lists no record that does not exist", () => {
    const linked = [...index.matchAll(/\]\((\d{3}-[^)]+\.md)\)/g)].map((m) => m[1]);
    expect(linked.filter((file) => !records.includes(file))).toEqual([]);
  });

  it("gives each row the record's number, title and date (no stray ': ' before a title)", () => {
    expect(rows).toHaveLength(records.length);
    for (const row of rows) {
      const text = read(row.file);
      expect(row.file.slice(0, 3), row.file).toBe(row.number);
      expect(row.title, row.file).toMatch(/^[\p{L}\p{N}`"„(]/u);
      expect(row.title, row.file).toBe(headingTitle(text));
      expect(row.date, row.file).toBe(/^Date: (.+)$/m.exec(text)?.[1]);
    }
  });

  it("marks a superseded record in the file and the index, naming a record that exists", () => {
    for (const row of rows) {
      const status = statusOf(read(row.file));
      const by = /^Superseded by (\d{3})\b/.exec(status)?.[1];
      expect(/^Superseded by (\d{3})\b/.exec(row.status)?.[1], row.file).toBe(by);
      if (by)
        expect(
          records.some((f) => f.startsWith(`${by}-`)),
          row.file,
        ).toBe(true);
    }
  });

  it("marks each row in force (yes) or not (no): only a superseded record is not", () => {
    for (const row of rows) {
      expect(["yes", "no"], row.file).toContain(row.inForce);
      expect(row.inForce, row.file).toBe(/^Superseded by/.test(row.status) ? "no" : "yes");
    }
  });

  it("names every amendment on both rows: 'amends N' here, 'amended by' this one on N's row", () => {
    const byNumber = new Map(rows.map((row) => [row.number, row]));
    const missing: string[] = [];
    for (const row of rows) {
      for (const target of named(row.status, /amends/)) {
        const other = byNumber.get(target);
        if (!other || !named(other.status, /amended by/).includes(row.number))
          missing.push(`${target} lacks "amended by ${row.number}"`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("cites only documents inside the repository", () => {
    for (const file of records) {
      const cited = [...read(file).matchAll(/[\w./-]+\.md\b/g)].map((m) => m[0]);
      // Outside-the-repo style guides (style.md, architecture.md) are not the repo's to cite.
      expect(
        cited.filter((name) => !existsSync(path.join(ROOT, name))),
        file,
      ).toEqual([]);
    }
  });

  it("is pointed at only by paths that exist (code, scripts, tests, README, docs)", () => {
    const tracked = execFileSync("git", ["ls-files", "app", "server", "scripts", "tests", "docs"], {
      cwd: ROOT,
      encoding: "utf8",
    })
      .split("\n")
      .filter((f) => /\.(ts|tsx|mjs|md)$/.test(f));
    const missing: string[] = [];
    for (const file of [...tracked, "README.md"]) {
      const text = readFileSync(path.join(ROOT, file), "utf8");
      for (const [target] of text.matchAll(/docs\/decisions\/\d{3}-[\w.-]+?\.md/g)) {
        if (!existsSync(path.join(ROOT, target))) missing.push(`${file}: ${target}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
