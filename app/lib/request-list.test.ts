import { describe, expect, it } from "vitest";
import { ftsQuery, parseRequestListQuery, requestListSearch } from "./request-list";

describe("parseRequestListQuery", () => {
  it("defaults and rejects unknown values", () => {
    expect(
      parseRequestListQuery(
        new URLSearchParams("tab=x&status=Foo&sort=bad&page=-3&stage=Bad!&promise=soon"),
      ),
    ).toEqual({
      tab: "active",
      q: "",
      status: "",
      assignment: "",
      source: "",
      stage: "",
      promise: "",
      sort: "newest",
      page: 1,
    });
  });
  it("reads the pipeline's filters: a stage id and an open promise (ADRs 345, 346)", () => {
    const q = parseRequestListQuery(new URLSearchParams("stage=demo&promise=overdue"));
    expect(q).toMatchObject({ stage: "demo", promise: "overdue" });
    expect(requestListSearch(q)).toBe("?stage=demo&promise=overdue");
  });
  it("sorts by relevance by default while searching", () => {
    const q = parseRequestListQuery(
      new URLSearchParams("q=bäcker&status=Done&assignment=unassigned&tab=archived&page=2"),
    );
    expect(q).toMatchObject({
      q: "bäcker",
      sort: "relevance",
      status: "Done",
      assignment: "unassigned",
      tab: "archived",
      page: 2,
    });
  });
  it("round-trips through requestListSearch without defaults", () => {
    const query = parseRequestListQuery(new URLSearchParams("q=abc&sort=id-asc&page=3"));
    expect(requestListSearch(query)).toBe("?q=abc&sort=id-asc&page=3");
    expect(requestListSearch(parseRequestListQuery(new URLSearchParams("")))).toBe("");
  });
});

describe("ftsQuery", () => {
  it("quotes every word as a prefix term and drops FTS syntax", () => {
    expect(ftsQuery('Bäck "Berlin')).toBe('"Bäck"* AND "Berlin"*');
    expect(ftsQuery("a:b (c)")).toBe('"ab"* AND "c"*');
    expect(ftsQuery("   ")).toBeNull();
  });
  it("drops NUL and control characters (they would end the FTS5 string early)", () => {
    expect(ftsQuery("\u0000")).toBeNull();
    expect(ftsQuery("Bäck\u0000erei\tBerlin")).toBe('"Bäck"* AND "erei"* AND "Berlin"*');
  });
  it("matches phone digits regardless of spaces", () => {
    expect(ftsQuery("0123 456")).toBe('("0123"* AND "456"*) OR phone_digits : "0123456"*');
  });
});
