import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { cacheStatements } from "./db-statements.server";

function database(max?: number) {
  const sqlite = new Database(":memory:");
  sqlite.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)");
  sqlite.prepare("INSERT INTO t (name) VALUES (?), (?), (?)").run("a", "b", "c");
  return { sqlite, cache: cacheStatements(sqlite, max) };
}

describe("prepared statements reused per SQL text (ADR 167)", () => {
  it("hands out the same statement for the same SQL, with fresh parameters each time", () => {
    const { sqlite } = database();
    const sql = "SELECT name FROM t WHERE id = ?";
    const first = sqlite.prepare(sql);
    expect(sqlite.prepare(sql)).toBe(first);
    expect(sqlite.prepare(sql).get(1)).toEqual({ name: "a" });
    expect(sqlite.prepare(sql).get(3)).toEqual({ name: "c" });
    expect(sqlite.prepare("SELECT id FROM t WHERE id = ?")).not.toBe(first);
  });

  it("resets raw, pluck and expand, so one caller's mode never reaches the next", () => {
    const { sqlite } = database();
    const sql = "SELECT id, name FROM t ORDER BY id LIMIT 1";
    expect(sqlite.prepare(sql).raw().all()).toEqual([[1, "a"]]);
    expect(sqlite.prepare(sql).all()).toEqual([{ id: 1, name: "a" }]);
    expect(sqlite.prepare(sql).pluck().get()).toBe(1);
    expect(sqlite.prepare(sql).get()).toEqual({ id: 1, name: "a" });
    expect(sqlite.prepare(sql).expand().get()).toEqual({ t: { id: 1, name: "a" } });
    expect(sqlite.prepare(sql).get()).toEqual({ id: 1, name: "a" });
  });

  it("prepares a fresh statement while the cached one is busy iterating", () => {
    const { sqlite } = database();
    const sql = "SELECT id FROM t ORDER BY id";
    const names: number[][] = [];
    for (const outer of sqlite.prepare(sql).pluck().iterate()) {
      names.push([outer as number, ...(sqlite.prepare(sql).pluck().all() as number[])]);
    }
    expect(names).toEqual([
      [1, 1, 2, 3],
      [2, 1, 2, 3],
      [3, 1, 2, 3],
    ]);
  });

  it("keeps at most `max` statements, dropping the least recently used", () => {
    const { sqlite, cache } = database(2);
    const a = sqlite.prepare("SELECT 1");
    sqlite.prepare("SELECT 2");
    expect(sqlite.prepare("SELECT 1")).toBe(a); // a is now the most recent
    sqlite.prepare("SELECT 3"); // drops SELECT 2
    expect(cache.size()).toBe(2);
    expect(sqlite.prepare("SELECT 1")).toBe(a);
    const b = sqlite.prepare("SELECT 2");
    expect(sqlite.prepare("SELECT 2")).toBe(b);
  });

  it("still writes: statements that return no data are reused as they are", () => {
    const { sqlite } = database();
    const insert = "INSERT INTO t (name) VALUES (?)";
    sqlite.prepare(insert).run("d");
    sqlite.prepare(insert).run("e");
    expect(sqlite.prepare("SELECT count(*) AS n FROM t").get()).toEqual({ n: 5 });
  });
});
