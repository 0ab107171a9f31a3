import net, { type AddressInfo } from "node:net";
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
  app.get("/big", (_req, res) => {
    res.send(Buffer.alloc(32 * 1024 * 1024, 0x61));
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

/** A raw connection that pipelines GETs of `paths` (with `headers`) and never reads an answer. */
function pipeline(url: string, paths: string[], headers = "") {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.on("error", () => {});
  socket.pause();
  socket.write(paths.map((p) => `GET ${p} HTTP/1.1\r\nHost: localhost\r\n${headers}\r\n`).join(""));
  return { socket };
}
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

  it("gives a free slot round robin: the waiting client served longest ago goes first, not the longest waiting (ADR 321, second amendment)", async () => {
    app = await start(1, 20, {
      perClient: 1,
      perClientQueue: 5,
      clientOf: (req) => req.get("x-client") ?? "",
      networkOf: (req) => req.get("x-network") ?? "",
    });
    const from = (client: string, network: string, id: string) =>
      fetch(`${app?.url}/work/${id}`, { headers: { "x-client": client, "x-network": network } });
    const a0 = from("a", "n1", "a0");
    await app.until(() => app?.started.length === 1);
    // The attacker queues three, then a neighbour of its network and a visitor of another.
    const queued: Promise<Response>[] = [];
    for (const id of ["a1", "a2", "a3"]) {
      queued.push(from("a", "n1", id));
      await app.until(() => app?.limiter.stats().waiting === queued.length);
    }
    queued.push(from("b", "n1", "b1"));
    await app.until(() => app?.limiter.stats().waiting === 4);
    queued.push(from("v", "n2", "v1"));
    await app.until(() => app?.limiter.stats().waiting === 5);
    // Another network first, then the neighbour (its network was served, its client never), then
    // the attacker's requests in their order.
    for (const id of ["a0", "v1", "b1", "a1", "a2"]) await app.release(id);
    await app.release("a3");
    const statuses = await Promise.all([a0, ...queued]);
    expect(statuses.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(app.started).toEqual(["a0", "v1", "b1", "a1", "a2", "a3"]);
  });

  it("lets one connection hold one slot: its pipelined requests wait outside the queue, more than 8 end it", async () => {
    app = await start(4, 20);
    const line = pipeline(app.url, ["/work/p1", "/work/p2", "/work/p3"]);
    await app.until(() => app?.started.length === 1);
    expect(app.limiter.stats()).toEqual({ active: 1, waiting: 0, inTransit: 0, smallInTransit: 0 });
    // Other connections take the other slots at once.
    const other = fetch(`${app.url}/work/o1`);
    await app.until(() => app?.started.length === 2);
    await app.release("o1");
    await other;
    // The answer before it is out (the kernel takes it): the next pipelined request gets the slot.
    await app.release("p1");
    await app.until(() => app?.started.includes("p2") === true);
    expect(app.limiter.stats().active).toBe(1);
    line.socket.destroy();
    await app.until(() => app?.limiter.stats().active === 0);

    // 1 in work and 9 pipelined behind it: the connection is closed, its slot freed (f0 is never
    // answered), and none of the pipelined requests is worked on.
    const flood = pipeline(
      app.url,
      Array.from({ length: 10 }, (_, i) => `/work/f${i}`),
    );
    await app.until(() => app?.started.includes("f0") === true && app.limiter.stats().active === 0);
    flood.socket.destroy();
    expect(app.started.filter((id) => id.startsWith("f"))).toEqual(["f0"]);
  });

  it("ends the connection of an answer that makes no write progress, freeing its slot", async () => {
    app = await start(2, 20, { writeStallMs: 200 });
    // The client never reads: the 32 MB answer stalls once the kernel's buffers are full.
    const reader = pipeline(app.url, ["/big"]);
    await app.until(() => app?.limiter.stats().active === 1);
    await app.until(() => app?.limiter.stats().active === 0);
    reader.socket.destroy();
    // An answer still being worked on writes nothing, and is not cut.
    const slow = fetch(`${app.url}/work/slow`);
    await app.until(() => app?.started.includes("slow") === true);
    await new Promise((resolve) => setTimeout(resolve, 600));
    await app.release("slow");
    expect((await slow).status).toBe(200);
  });

  it("lets one network's uploads hold at most a quarter of the uploads' slots; other networks and its other requests go on", async () => {
    app = await start(16, 50, {
      perClient: 16,
      clientOf: (req) => req.get("x-client") ?? "",
      networkOf: (req) => req.get("x-network") ?? "",
      inTransit: (req) => req.get("x-kind") === "upload",
    });
    const from = (client: string, network: string, id: string, kind = "") =>
      fetch(`${app?.url}/work/${id}`, {
        headers: { "x-client": client, "x-network": network, "x-kind": kind },
      });
    // Two clients of one network, two uploads each: the uploads' half is 8, the network's share 2.
    const held = ["a1", "a2"].map((id) => from("a", "n1", id, "upload"));
    const more = ["b1", "b2"].map((id) => from("b", "n1", id, "upload"));
    await app.until(() => app?.limiter.stats().inTransit === 2);
    await app.until(() => app?.limiter.stats().waiting === 2);
    expect(app.started).toEqual(["a1", "a2"]);
    // Another network's upload and the network's own plain request take slots at once.
    const other = from("c", "n2", "c1", "upload");
    const plain = from("b", "n1", "g1");
    await app.until(() => app?.started.length === 4);
    expect(app.started.slice(2).sort()).toEqual(["c1", "g1"]);
    expect(app.limiter.stats()).toMatchObject({ active: 4, waiting: 2, inTransit: 3 });
    // One of the network's uploads ends: its next one (the other client's) gets the slot.
    for (const id of ["c1", "g1", "a1"]) await app.release(id);
    await app.until(() => app?.started.includes("b1") === true);
    for (const id of ["a2", "b1", "b2"]) await app.release(id);
    const answers = await Promise.all([...held, ...more, other, plain]);
    expect(answers.map((r) => r.status)).toEqual(Array(6).fill(200));
  });

  it("never cuts a slow reader that keeps reading an answer sent as one large write", async () => {
    app = await start(2, 20, { writeStallMs: 1_500 });
    // The 32 MB answer is one write: its bytes wait in the socket's buffer until the last one is
    // out, so only the kernel taking more of it tells progress. 512 kB per 50 ms is about 3 s.
    const reader = pipeline(app.url, ["/big"]);
    let received = 0;
    let window = 0;
    reader.socket.on("data", (chunk: Buffer) => {
      received += chunk.length;
      window += chunk.length;
      if (window >= 512 * 1024) reader.socket.pause();
    });
    const closed = new Promise((resolve) => reader.socket.on("close", resolve));
    const pace = setInterval(() => {
      window = 0;
      reader.socket.resume();
    }, 50);
    await Promise.race([closed, app.until(() => received > 32 * 1024 * 1024)]);
    clearInterval(pace);
    reader.socket.destroy();
    expect(received).toBeGreaterThan(32 * 1024 * 1024);
  });

  it("lets one client have at most 2 handed-on small bodies waiting, one network its own cap of waiting requests", async () => {
    app = await start(1, 50, {
      perClient: 1,
      perClientQueue: 10,
      perNetworkQueue: 4,
      clientOf: (req) => req.get("x-client") ?? "",
      networkOf: (req) => req.get("x-network") ?? "",
      smallInTransit: (req) => req.get("x-kind") === "small",
    });
    const from = (client: string, network: string, id: string, kind = "") =>
      fetch(`${app?.url}/work/${id}`, {
        headers: { "x-client": client, "x-network": network, "x-kind": kind },
      });
    const first = from("x", "n0", "x0");
    await app.until(() => app?.started.length === 1);
    const small = ["s1", "s2"].map((id) => from("a", "n1", id, "small"));
    await app.until(() => app?.limiter.stats().waiting === 2);
    const refused = await from("a", "n1", "s3", "small");
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Zu viele gleichzeitige Anfragen");
    // Two more of its network wait (4), the fifth is refused; another network still waits.
    const more = [from("b", "n1", "b1"), from("c", "n1", "c1")];
    await app.until(() => app?.limiter.stats().waiting === 4);
    expect((await from("d", "n1", "d1")).status).toBe(429);
    const visitor = from("v", "n2", "v1");
    await app.until(() => app?.limiter.stats().waiting === 5);
    // Round robin: neither network was served yet, so the first in line (s1), then the other
    // network, then the clients of n1 not served yet, then the small body's client again.
    for (const id of ["x0", "s1", "v1", "b1", "c1", "s2"]) await app.release(id);
    const statuses = await Promise.all([first, ...small, ...more, visitor]);
    expect(statuses.map((r) => r.status)).toEqual(Array(6).fill(200));
  });

  it("takes Fly's client IP only when it is an IP address; else the socket's address", () => {
    const req = (remoteAddress: string, fly?: string) =>
      ({
        socket: { remoteAddress },
        get: (name: string) => (name.toLowerCase() === "fly-client-ip" ? fly : undefined),
      }) as unknown as Parameters<typeof clientAddress>[0];
    expect(clientAddress(req("10.0.0.1", "not-an-ip"), true)).toBe("10.0.0.1");
    expect(clientAddress(req("10.0.0.1", "203.0.113.7, 198.51.100.1"), true)).toBe("10.0.0.1");
    expect(clientAddress(req("10.0.0.1", "203.0.113.7/24"), true)).toBe("10.0.0.1");
    expect(clientAddress(req("10.0.0.1", "x".repeat(200)), true)).toBe("10.0.0.1");
    expect(clientAddress(req("10.0.0.1", " 203.0.113.7 "), true)).toBe("203.0.113.7");
    expect(clientAddress(req("10.0.0.1", "2001:db8::1"), true)).toBe("2001:db8::1");
  });
});
