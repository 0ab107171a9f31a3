import type { AddressInfo } from "node:net";
import net from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { bodyIntake } from "../../server/body-intake.ts";
import { dueBy } from "../../server/body-pace.ts";
import { bodyGuard } from "../../server/guards.ts";

// The body pace and the read-ahead of small bodies (ADR 321), on a small scale: a grace of
// 200 ms and 2,000 bytes a second.
const pace = { graceMs: 200, bytesPerSecond: 2000 };
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function start(withIntake?: Parameters<typeof bodyIntake>[0]) {
  const app = express();
  const intake = withIntake ? bodyIntake({ pace, ...withIntake }) : undefined;
  const started: string[] = [];
  if (intake) app.use(intake);
  app.use((req, _res, next) => {
    started.push(String(req.headers["x-id"] ?? ""));
    next();
  });
  app.use(
    bodyGuard({
      appUrl: "http://127.0.0.1",
      trustProxy: "",
      multipartCap: () => 1e6,
      bodyPace: pace,
    }),
  );
  app.post("/form", async (_req, res) => {
    let length = 0;
    try {
      for await (const chunk of res.locals.body as AsyncIterable<Buffer>) length += chunk.length;
    } catch {
      return;
    }
    res.send(`ok ${length}`);
  });
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return { port: (server.address() as AddressInfo).port, intake, started };
}

/** A POST over a raw socket: the headers, then `send` writes body bytes; resolves with the answer. */
function post(port: number, declared: number, id = "") {
  const socket = net.connect(port, "127.0.0.1");
  socket.write(
    `POST /form HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Id: ${id}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${declared}\r\n\r\n`,
  );
  let answer = "";
  socket.on("data", (chunk) => {
    answer += chunk;
  });
  socket.on("error", () => {});
  const closed = new Promise<string>((resolve) => socket.on("close", () => resolve(answer)));
  return {
    send: (bytes: number) => socket.write("a".repeat(bytes)),
    answered: () => answer,
    closed,
    destroy: () => socket.destroy(),
  };
}

/** Sends `bytes` every `everyMs` until `total` are out. */
function trickle(client: ReturnType<typeof post>, bytes: number, everyMs: number, total: number) {
  let sent = 0;
  const timer = setInterval(() => {
    const n = Math.min(bytes, total - sent);
    client.send(n);
    sent += n;
    if (sent >= total) clearInterval(timer);
  }, everyMs);
  return () => clearInterval(timer);
}

describe("the body pace (ADR 321)", () => {
  it("the deadline grows with what has come: grace plus the bytes at the minimum rate", () => {
    expect(dueBy(0, pace)).toBe(200);
    expect(dueBy(2000, pace)).toBe(1200);
    expect(dueBy(10_000, { graceMs: 10_000, bytesPerSecond: 8192 })).toBeCloseTo(11_220.7, 0);
  });

  it("the total deadline caps it, however fast the bytes came", () => {
    const capped = { ...pace, deadlineMs: 1000 };
    expect(dueBy(0, capped)).toBe(200);
    expect(dueBy(2000, capped)).toBe(1000);
    expect(dueBy(1e9, capped)).toBe(1000);
  });

  it("a body that falls behind is cut with 408 and the connection ends", async () => {
    const { port } = await start();
    const client = post(port, 5000);
    const stop = trickle(client, 1, 50, 5000);
    const answer = await client.closed;
    stop();
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer).toContain("Die Übertragung war zu langsam und wurde abgebrochen.");
  });

  it("a body above the pace is read whole, however long it takes", async () => {
    const { port } = await start();
    const client = post(port, 6000);
    // 300 bytes every 25 ms: 12,000 bytes a second, 500 ms in all (past the grace); timers late
    // by three times on a loaded machine still keep it above the pace.
    const stop = trickle(client, 300, 25, 6000);
    while (!/ok \d+|408/.test(client.answered())) await new Promise((r) => setImmediate(r));
    stop();
    client.destroy();
    expect(client.answered()).toMatch(/^HTTP\/1\.1 200[\s\S]*ok 6000$/);
  });
});

describe("small bodies read before the request goes on", () => {
  it("the request goes on only with its whole body; a trickled one never does and is cut", async () => {
    const { port, intake, started } = await start({ maxBody: 1000, budget: 10_000 });
    const slow = post(port, 500, "slow");
    const stop = trickle(slow, 1, 50, 500);
    const quick = post(port, 400, "quick");
    quick.send(400);
    while (!quick.answered().includes("ok 400")) await new Promise((r) => setImmediate(r));
    expect(started).toEqual(["quick"]);
    expect(intake?.stats().reading).toBe(1);
    expect(await slow.closed).toMatch(/^HTTP\/1\.1 408/);
    stop();
    expect(started).toEqual(["quick"]);
    expect(intake?.stats()).toMatchObject({ reading: 0, bytes: 0 });
  });

  it("a declared body reserves nothing until its bytes arrive; one that no longer fits goes on with what it read", async () => {
    const { port, intake, started } = await start({ maxBody: 1000, budget: 4000 });
    // Ten bodies declared and not sent: 10,000 bytes declared, none reserved.
    const idle = Array.from({ length: 10 }, (_, i) => post(port, 1000, `idle${i}`));
    while ((intake?.stats().reading ?? 0) < 10) await new Promise((r) => setImmediate(r));
    expect(intake?.stats()).toMatchObject({ reading: 10, bytes: 0 });
    const quick = post(port, 1000, "quick");
    quick.send(1000);
    while (!quick.answered().includes("ok 1000")) await new Promise((r) => setImmediate(r));
    // Four of the idle bodies send 999 bytes (all from one client): the client's quarter of the
    // budget (1,000 bytes) holds one; the other three go on with their 999 bytes and are read
    // whole once their last byte comes.
    for (const client of idle.slice(0, 4)) client.send(999);
    while (started.length < 4) await new Promise((r) => setImmediate(r));
    expect(intake?.stats()).toMatchObject({ reading: 7, bytes: 999 });
    const handed = idle.slice(0, 4).filter((_, i) => started.includes(`idle${i}`));
    expect(handed).toHaveLength(3);
    for (const client of handed) client.send(1);
    while (!handed.every((client) => client.answered().includes("ok 1000")))
      await new Promise((r) => setImmediate(r));
    for (const client of idle) client.destroy();
    while (intake?.stats().reading || intake?.stats().bytes)
      await new Promise((r) => setImmediate(r));
  });

  it("reads at most the budget ahead, a client a quarter of it, a network half; the rest go on unread", async () => {
    const clients = new Map([
      ["a1", ["a", "n1"]],
      ["a2", ["a", "n1"]],
      ["b1", ["b", "n1"]],
      ["c1", ["c", "n2"]],
      ["d1", ["d", "n3"]],
      ["e1", ["e", "n4"]],
    ]);
    const of = (req: express.Request, i: 0 | 1) =>
      (clients.get(String(req.headers["x-id"])) ?? ["?", "?"])[i] as string;
    const { port, intake, started } = await start({
      maxBody: 1000,
      budget: 4000,
      clientOf: (req) => of(req, 0),
      networkOf: (req) => of(req, 1),
    });
    // One after the other, each body but its last byte: a1 is read ahead, a2 goes on (its
    // client's quarter is taken), b1 fills n1's half, c1 and d1 fill the budget, e1 goes on.
    const open: ReturnType<typeof post>[] = [];
    for (const id of clients.keys()) {
      const seen = (intake?.stats().bytes ?? 0) + started.length;
      const client = post(port, 1000, id);
      client.send(999);
      open.push(client);
      while ((intake?.stats().bytes ?? 0) + started.length === seen)
        await new Promise((r) => setImmediate(r));
    }
    expect(started).toEqual(["a2", "e1"]);
    expect(intake?.stats()).toMatchObject({ reading: 4, bytes: 3996, peakBytes: 3996 });
    for (const client of open) client.destroy();
    while (intake?.stats().bytes) await new Promise((r) => setImmediate(r));
  });
});
