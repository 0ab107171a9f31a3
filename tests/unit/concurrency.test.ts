import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { concurrencyLimit } from "../../server/concurrency.ts";

// An app whose /work/:id answers only when the test releases that id.
async function start(limit: number, queue: number) {
  const gates = new Map<string, () => void>();
  const started: string[] = [];
  const limiter = concurrencyLimit({ limit, queue, bypass: (req) => req.path === "/healthz" });
  const app = express();
  app.use(limiter);
  app.get("/healthz", (_req, res) => {
    res.send("ok");
  });
  app.get("/work/:id", (req, res) => {
    started.push(req.params.id);
    gates.set(req.params.id, () => res.send(req.params.id));
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const until = async (condition: () => boolean) => {
    while (!condition()) await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    url,
    limiter,
    started,
    until,
    release: async (id: string) => {
      await until(() => gates.has(id));
      gates.get(id)?.();
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

let app: Awaited<ReturnType<typeof start>> | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

describe("concurrencyLimit (ADR 195)", () => {
  it("works on at most `limit` requests; the next waits and starts when one finishes", async () => {
    app = await start(2, 10);
    const a = fetch(`${app.url}/work/a`);
    const b = fetch(`${app.url}/work/b`);
    await app.until(() => app?.started.length === 2);
    const c = fetch(`${app.url}/work/c`);
    await app.until(() => app?.limiter.stats().waiting === 1);
    expect(app.started).toEqual(["a", "b"]);
    expect(app.limiter.stats()).toEqual({ active: 2, waiting: 1 });

    await app.release("b");
    expect(await (await b).text()).toBe("b");
    await app.until(() => app?.started.length === 3);
    expect(app.started).toEqual(["a", "b", "c"]);
    expect(app.limiter.stats()).toEqual({ active: 2, waiting: 0 });

    await app.release("a");
    await app.release("c");
    expect(await (await a).text()).toBe("a");
    expect(await (await c).text()).toBe("c");
    await app.until(() => app?.limiter.stats().active === 0);
  });

  it("answers 503 with Retry-After when the queue is full, and never queues the health check", async () => {
    app = await start(1, 1);
    const a = fetch(`${app.url}/work/a`);
    await app.until(() => app?.started.length === 1);
    const b = fetch(`${app.url}/work/b`);
    await app.until(() => app?.limiter.stats().waiting === 1);

    const refused = await fetch(`${app.url}/work/c`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(await refused.text()).toContain("ausgelastet");
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);

    await app.release("a");
    await app.release("b");
    expect([(await a).status, (await b).status]).toEqual([200, 200]);
  });

  it("drops a waiting request whose client went away; its slot is not lost", async () => {
    app = await start(1, 5);
    const a = fetch(`${app.url}/work/a`);
    await app.until(() => app?.started.length === 1);
    const abort = new AbortController();
    const gone = fetch(`${app.url}/work/gone`, { signal: abort.signal }).catch(() => "aborted");
    await app.until(() => app?.limiter.stats().waiting === 1);
    abort.abort();
    expect(await gone).toBe("aborted");
    await app.until(() => app?.limiter.stats().waiting === 0);

    await app.release("a");
    await a;
    const d = fetch(`${app.url}/work/d`);
    await app.release("d");
    expect(await (await d).text()).toBe("d");
    expect(app.started).toEqual(["a", "d"]);
    await app.until(() => app?.limiter.stats().active === 0);
  });

  it("is off with limit 0", async () => {
    app = await start(0, 0);
    const a = fetch(`${app.url}/work/a`);
    const b = fetch(`${app.url}/work/b`);
    await app.until(() => app?.started.length === 2);
    expect(app.limiter.stats()).toEqual({ active: 0, waiting: 0 });
    await app.release("a");
    await app.release("b");
    await Promise.all([a, b]);
  });
});
