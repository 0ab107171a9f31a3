import type { EntryContext } from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { testHooks } from "../platform/test-hooks.server";
import { MAX_BYTES, MAX_ENTRIES, renderWithCache, stableSerialize } from "./render-cache.server";

describe("stableSerialize", () => {
  it("is independent of key order and tells apart what renders differently", () => {
    expect(stableSerialize({ a: 1, b: [1, "x"] })).toBe(stableSerialize({ b: [1, "x"], a: 1 }));
    const distinct = [
      { a: null },
      { a: undefined },
      {},
      { a: "1" },
      { a: 1 },
      { a: true },
      { a: [] },
      { a: {} },
      { a: new Date(0) },
      { a: new Date(1) },
      { a: Number.NaN },
      { a: [null] },
      { a: [undefined] },
    ].map(stableSerialize);
    expect(distinct.every((s) => typeof s === "string")).toBe(true);
    expect(new Set(distinct).size).toBe(distinct.length);
  });

  it("refuses values it cannot represent faithfully (the page is then rendered fresh)", () => {
    class Thing {
      x = 1;
    }
    for (const value of [
      { a: new Map([[1, 2]]) },
      { a: new Set([1]) },
      { a: Promise.resolve(1) },
      { a: new Thing() },
      { a: () => 1 },
      { a: 1n },
      { a: Symbol("s") },
      // biome-ignore lint/suspicious/noSparseArray: a hole is not undefined
      [1, , 2],
    ]) {
      expect(stableSerialize(value)).toBeNull();
    }
  });
});

type Page = { url: string; data?: unknown; leaf?: string; method?: string; actionData?: unknown };

function input({ url, data = {}, leaf = "landing", method = "GET", actionData = null }: Page) {
  const context = {
    isSpaMode: false,
    manifest: { version: "v1" },
    routeModules: {
      landing: { handle: { renderCache: true } },
      own: { handle: { renderCache: (d: { mine: unknown[] }) => d.mine.length === 0 } },
      other: {},
    },
    staticHandlerContext: {
      statusCode: 200,
      actionData,
      errors: null,
      matches: [{ route: { id: "root" } }, { route: { id: leaf } }],
      loaderData: { root: { theme: "system" }, [leaf]: data },
    },
  } as unknown as EntryContext;
  return {
    request: new Request(`http://localhost${url}`, { method }),
    statusCode: 200,
    headers: new Headers(),
    context,
    nonce: `nonce-${Math.random().toString(36).slice(2)}`,
  };
}

/** A render that counts its calls and writes the nonce it was given into the page. */
function renderer(size = 100, status = 200) {
  const calls: { nonce: string | undefined; allReady: boolean }[] = [];
  const render = async (nonce: string | undefined, allReady: boolean) => {
    calls.push({ nonce, allReady });
    return new Response(`<script nonce="${nonce}"></script><p>${"ä".repeat(size)}</p>`, {
      status,
      headers: { "Content-Type": "text/html; charset=utf-8" },
    });
  };
  return { calls, render };
}

describe("renderWithCache", () => {
  beforeEach(() => {
    vi.stubEnv("DEV", false);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("renders once per key and puts each response's own nonce in", async () => {
    const { calls, render } = renderer();
    for (let i = 0; i < 3; i++) {
      const page = input({ url: "/?unit=nonce" });
      const html = await (await renderWithCache(page, render)).text();
      expect(html).toContain(`<script nonce="${page.nonce}">`);
      expect(html.match(/nonce="/g)).toHaveLength(1);
    }
    expect(calls).toHaveLength(1);
    expect(calls[0].allReady).toBe(true);
    expect(calls[0].nonce).not.toMatch(/^nonce-/);
  });

  it("renders fresh what does not opt in, posts, action data and failed renders", async () => {
    for (const page of [
      { url: "/?unit=leaf", leaf: "other" },
      { url: "/?unit=post", method: "POST" },
      { url: "/?unit=action", actionData: { fehler: true } },
      { url: "/?unit=map", data: { m: new Map() } },
    ]) {
      const { calls, render } = renderer();
      for (let i = 0; i < 2; i++) await renderWithCache(input(page), render);
      expect(calls.map((c) => c.allReady)).toEqual([false, false]);
      expect(calls.every((c) => c.nonce?.startsWith("nonce-"))).toBe(true);
    }
    const failing = renderer(10, 500);
    for (let i = 0; i < 2; i++) {
      const res = await renderWithCache(input({ url: "/?unit=500" }), failing.render);
      expect(res.status).toBe(500);
    }
    // Each time: the cacheable attempt, then the request's own render.
    expect(failing.calls.map((c) => c.allReady)).toEqual([true, false, true, false]);
  });

  it("asks the route's rule whether this page may be kept", async () => {
    const anonymous = renderer();
    for (let i = 0; i < 2; i++) {
      await renderWithCache(
        input({ url: "/?unit=rule", leaf: "own", data: { mine: [] } }),
        anonymous.render,
      );
    }
    expect(anonymous.calls).toHaveLength(1);
    const personal = renderer();
    for (let i = 0; i < 2; i++) {
      await renderWithCache(
        input({ url: "/?unit=rule", leaf: "own", data: { mine: [1] } }),
        personal.render,
      );
    }
    expect(personal.calls.map((c) => c.allReady)).toEqual([false, false]);
  });

  it("keys on the loader data and the query", async () => {
    const { calls, render } = renderer();
    for (const page of [
      { url: "/?unit=key", data: { a: 1 } },
      { url: "/?unit=key", data: { a: 2 } },
      { url: "/?unit=key&b", data: { a: 1 } },
      { url: "/?unit=key", data: { a: 1 } },
    ]) {
      await renderWithCache(input(page), render);
    }
    expect(calls).toHaveLength(3);
  });

  it("holds at most MAX_ENTRIES pages and MAX_BYTES, dropping the least recently used", async () => {
    const { render } = renderer();
    await renderWithCache(input({ url: "/?unit=keep" }), render);
    for (let i = 0; i < MAX_ENTRIES + 20; i++) {
      await renderWithCache(input({ url: `/?unit=lru-${i}` }), render);
      // Used again and again: stays while older ones are dropped.
      await renderWithCache(input({ url: "/?unit=keep" }), render);
    }
    expect(testHooks.renderCacheStats().entries).toBe(MAX_ENTRIES);
    const kept = renderer();
    await renderWithCache(input({ url: "/?unit=keep" }), kept.render);
    expect(kept.calls).toHaveLength(0);
    const dropped = renderer();
    await renderWithCache(input({ url: "/?unit=lru-0" }), dropped.render);
    expect(dropped.calls).toHaveLength(1);

    const big = renderer(200_000);
    for (let i = 0; i < 20; i++)
      await renderWithCache(input({ url: `/?unit=big-${i}` }), big.render);
    expect(testHooks.renderCacheStats().bytes).toBeLessThanOrEqual(MAX_BYTES);
    expect(testHooks.renderCacheStats().entries).toBeLessThan(MAX_ENTRIES);
  });
});
