// Slow readers and queued floods (ADR 321, second amendment): a client that pipelines requests and
// never reads the answers holds one slot per connection at most, and only until its answer stalls;
// requests waiting for a slot are dispatched fairly across clients and networks, so an honest
// request does not wait behind a queue an attacker filled. TRUST_PROXY=fly lets the test speak
// from any address.
import diagnostics from "node:diagnostics_channel";
import type http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { answerWithin, slotServer, until } from "./slot-server";
import { formBody, type Trickle } from "./trickle";

const { server, stats, visit, trickleFrom, submit } = slotServer();

type Reader = { socket: net.Socket; written: Promise<void> };

/**
 * One connection from `ip` that pipelines `count` GETs of `/?x=<query bytes>` (one write each) and
 * never reads an answer.
 */
function pipelineUnread(ip: string, count: number, query = 14_000): Reader {
  const { hostname, port } = new URL(server().url);
  const socket = net.connect(Number(port), hostname);
  socket.on("error", () => {});
  socket.pause();
  const one = `GET /?x=${"a".repeat(query)} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nFly-Client-IP: ${ip}\r\n\r\n`;
  const written = new Promise<void>((resolve) => {
    socket.once("connect", async () => {
      for (let i = 0; i < count && !socket.destroyed; i++) {
        await new Promise<void>((done) => socket.write(one, () => done()));
      }
      resolve();
    });
    socket.once("close", () => resolve());
  });
  return { socket, written };
}

const stopAll = (posts: Trickle[]) => {
  for (const post of posts) post.stop();
};

describe("slow readers", () => {
  it("in parallel: 4 connections pipelining 110 GETs each that are never read leave GET / and a small POST to another network", async () => {
    // The first render of a fresh server is slow on a loaded machine: not what is measured here.
    expect(await visit("198.18.9.254", 30_000)).toBe(200);
    expect(await submit("198.18.10.254", 30_000)).toBe(201);
    const ips = ["10.1.1.1", "10.1.1.2", "10.2.2.1", "10.2.2.2"];
    // The readers' connections as the server sees them.
    const sockets = new Set<net.Socket>();
    const count = (message: unknown) => {
      const { request } = message as { request: http.IncomingMessage };
      if (ips.includes(String(request.headers["fly-client-ip"]))) sockets.add(request.socket);
    };
    diagnostics.subscribe("http.server.request.start", count);
    const readers = ips.map((ip) => pipelineUnread(ip, 110));
    try {
      // Each reader's connection is closed (more than 8 pipelined requests waiting) or its answers
      // stall: the kernel's buffers are full, bytes wait in the server's own (before: ~45 kB each,
      // with all 16 slots held by the readers).
      await Promise.all(readers.map((reader) => reader.written));
      await until(
        () => sockets.size === 4 && [...sockets].every((s) => s.destroyed || s.writableLength > 0),
      );
      const started = Date.now();
      const [get, post] = await Promise.all([visit("198.18.9.1"), submit("198.18.10.1")]);
      expect({ get, post }).toEqual({ get: 200, post: 201 });
      expect(Date.now() - started).toBeLessThan(5000);
      // Pipelined requests never wait in the queue shared by everyone.
      expect(stats().waiting).toBe(0);
    } finally {
      diagnostics.unsubscribe("http.server.request.start", count);
      for (const reader of readers) reader.socket.destroy();
    }
    await until(() => stats().active === 0);
  }, 90_000);

  it("in parallel: handed-on small bodies queued by 4 clients do not keep an honest small POST waiting behind them", async () => {
    const ips = ["10.1.1.11", "10.1.1.12", "10.2.2.11", "10.2.2.12"];
    // Each client its quarter of the read-ahead budget: 16 bodies of 64 KB, all but the last byte.
    const fillers = await trickleFrom(ips, 16, {
      ...formBody(64 * 1024),
      bytes: 64 * 1024 - 1,
      everyMs: 60_000,
    });
    const stacked: Trickle[] = [];
    try {
      await until(() => stats().intake.bytes === 64 * (64 * 1024 - 1));
      // 10 more bodies each that send 100 bytes: handed on to the small bodies' share (4 slots),
      // each holding its slot until its pace is missed (10 s).
      stacked.push(
        ...(await trickleFrom(ips, 10, { ...formBody(64 * 1024), bytes: 100, everyMs: 60_000 })),
      );
      await until(() => stats().smallInTransit === 4);
      const waiting = stats().waiting;
      const started = Date.now();
      // The honest submission is handed on as well (the budget is full) and gets the next free
      // small slot: at most one pace grace (10 s), not (bodies ahead ÷ 4) × 10 s.
      expect(await submit("198.18.7.1", 13_000)).toBe(201);
      expect(Date.now() - started).toBeLessThan(13_000);
      // A client has at most 2 handed-on bodies waiting; beyond that it is refused (429).
      expect(waiting).toBeLessThanOrEqual(8);
      const refused = await Promise.all(stacked.map((post) => answerWithin(post, 30_000)));
      expect(refused.filter((status) => status === 429).length).toBeGreaterThanOrEqual(24);
    } finally {
      stopAll([...fillers, ...stacked]);
    }
    await until(() => stats().active === 0 && stats().intake.reading === 0);
  }, 90_000);
});
