import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { clientKey as keyOf } from "../../app/lib/client-key.ts";
import {
  type ConcurrencyOptions,
  clientAddress,
  concurrencyLimit,
} from "../../server/concurrency.ts";

// An app whose /work/:id answers only when the test releases that id.
// Without options every request counts as one client allowed all of `limit` (the fair share is
// tested on its own below, with the client named in an x-client header).
async function start(limit: number, queue: number, options: Partial<ConcurrencyOptions> = {}) {
  const gates = new Map<string, () => void>();
  const started: string[] = [];
  const limiter = concurrencyLimit({
    limit,
    queue,
    perClient: limit,
    perClientQueue: queue,
    bypass: (req) => req.path === "/healthz",
    ...options,
  });
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
    expect(app.limiter.stats()).toEqual({ active: 2, waiting: 1, inTransit: 0, smallInTransit: 0 });

    await app.release("b");
    expect(await (await b).text()).toBe("b");
    await app.until(() => app?.started.length === 3);
    expect(app.started).toEqual(["a", "b", "c"]);
    expect(app.limiter.stats()).toEqual({ active: 2, waiting: 0, inTransit: 0, smallInTransit: 0 });

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
    expect(app.limiter.stats()).toEqual({ active: 0, waiting: 0, inTransit: 0, smallInTransit: 0 });
    await app.release("a");
    await app.release("b");
    await Promise.all([a, b]);
  });

  it("lets one client hold only its share of the slots; other clients pass it (ADR 197)", async () => {
    app = await start(4, 20, {
      perClient: 2,
      perClientQueue: 3,
      clientOf: (req) => req.get("x-client") ?? "",
    });
    const from = (client: string, id: string) =>
      fetch(`${app?.url}/work/${id}`, { headers: { "x-client": client } });
    // The attacker's requests all arrive at once: two are worked on, three wait, the rest are refused.
    const attack = ["a1", "a2", "a3", "a4", "a5", "a6", "a7"].map((id) => from("attacker", id));
    await app.until(() => app?.started.length === 2 && app.limiter.stats().waiting === 3);
    const refused = await Promise.all(attack.slice(5));
    expect(refused.map((r) => r.status)).toEqual([429, 429]);
    expect(refused[0].headers.get("retry-after")).toBe("5");
    expect(await refused[0].text()).toContain("Zu viele gleichzeitige Anfragen");
    expect(app.started).toEqual(["a1", "a2"]);

    // Two slots are still free, and another client gets them at once, ahead of the waiting attacker.
    const visitor = [from("visitor", "v1"), from("visitor", "v2")];
    await app.until(() => app?.started.length === 4);
    expect(app.started.slice(2)).toEqual(["v1", "v2"]);
    expect(app.limiter.stats()).toEqual({ active: 4, waiting: 3, inTransit: 0, smallInTransit: 0 });

    // A visitor's slot that frees up goes to the visitor's next request, not to the attacker at the head.
    const v3 = from("visitor", "v3");
    await app.until(() => app?.limiter.stats().waiting === 4);
    await app.release("v1");
    await app.until(() => app?.started.length === 5);
    expect(app.started[4]).toBe("v3");

    // The attacker's own finished request lets its longest waiting one in.
    await app.release("a1");
    await app.until(() => app?.started.length === 6);
    expect(app.started[5]).toBe("a3");

    for (const id of ["v2", "v3", "a2", "a3"]) await app.release(id);
    await app.until(() => app?.started.length === 8);
    for (const id of ["a4", "a5"]) await app.release(id);
    const statuses = await Promise.all([...attack.slice(0, 5), ...visitor, v3]);
    expect(statuses.map((r) => r.status)).toEqual(Array(8).fill(200));
    await app.until(() => app?.limiter.stats().active === 0);
  });

  it("uploads in transit hold at most half the slots, small bodies in transit their own quarter (ADR 321)", async () => {
    // The kind of body named by an x-kind header: "upload", "small" or none (complete).
    const kind = (req: express.Request) => req.get("x-kind");
    app = await start(8, 20, {
      inTransit: (req) => kind(req) === "upload",
      smallInTransit: (req) => kind(req) === "small",
    });
    const as = (k: string, id: string) =>
      fetch(`${app?.url}/work/${id}`, { headers: k ? { "x-kind": k } : {} });
    // Six uploads: four are worked on (half of 8), two wait.
    const uploads = ["u1", "u2", "u3", "u4", "u5", "u6"].map((id) => as("upload", id));
    await app.until(() => app?.started.length === 4 && app.limiter.stats().waiting === 2);
    // Small bodies pass the waiting uploads to their own two slots; a third waits.
    const small = ["s1", "s2", "s3"].map((id) => as("small", id));
    await app.until(() => app?.started.length === 6 && app.limiter.stats().waiting === 3);
    expect(app.started.slice(4)).toEqual(["s1", "s2"]);
    expect(app.limiter.stats()).toEqual({ active: 6, waiting: 3, inTransit: 4, smallInTransit: 2 });
    // Complete bodies take the rest, past all of them.
    const complete = [as("", "c1"), as("", "c2")];
    await app.until(() => app?.started.length === 8);
    expect(app.started.slice(6)).toEqual(["c1", "c2"]);
    // A small body's slot goes to the waiting small body, an upload's to the waiting upload.
    await app.release("s1");
    await app.until(() => app?.started.includes("s3") === true);
    await app.release("u1");
    await app.until(() => app?.started.includes("u5") === true);
    for (const id of ["s2", "s3", "c1", "c2", "u2", "u3", "u4", "u5"]) await app.release(id);
    await app.release("u6");
    const statuses = await Promise.all([...uploads, ...small, ...complete]);
    expect(statuses.map((r) => r.status)).toEqual(Array(11).fill(200));
    await app.until(() => app?.limiter.stats().active === 0);
  });

  it("names the client by Fly's header only behind Fly, and an IPv6 client by its /56", () => {
    const req = (remoteAddress: string, fly?: string) =>
      ({
        socket: { remoteAddress },
        get: (name: string) => (name.toLowerCase() === "fly-client-ip" ? fly : undefined),
      }) as unknown as Parameters<typeof clientAddress>[0];
    // The slots count the one client identity of every limit (app/lib/client-key.ts, ADR 254).
    const clientKey = (r: Parameters<typeof clientAddress>[0], trustFly: boolean) =>
      keyOf(clientAddress(r, trustFly));
    expect(clientKey(req("::ffff:127.0.0.1", "203.0.113.7"), true)).toBe("203.0.113.7");
    expect(clientKey(req("::ffff:127.0.0.1", "203.0.113.7"), false)).toBe("127.0.0.1");
    expect(clientKey(req("10.0.0.1"), true)).toBe("10.0.0.1");
    expect(clientKey(req("2001:db8:1:2:aaaa::1"), false)).toBe("2001:db8:1:00/56");
    expect(clientKey(req("2001:db8:1:ff:ffff:ffff:ffff:fffe"), false)).toBe("2001:db8:1:00/56");
    expect(clientKey(req("2001:0db8:0001:0002::1%eth0"), false)).toBe("2001:db8:1:00/56");
    // A subscriber's /56 is one client, whichever of its 256 /64s it uses; the next /56 is another.
    expect(clientKey(req("2001:db8:0:100::1"), false)).toBe("2001:db8:0:01/56");
    expect(clientKey(req("2001:db8:0:1ff::1"), false)).toBe("2001:db8:0:01/56");
    expect(clientKey(req("2001:db8:0:200::1"), false)).toBe("2001:db8:0:02/56");
    expect(clientKey(req("2001:db8::1"), false)).toBe("2001:db8:0:00/56");
    expect(clientKey(req("::1"), false)).toBe("0:0:0:00/56");
    expect(clientKey(req("", "2001:db8:1:3::9"), true)).toBe("2001:db8:1:00/56");
  });
});
