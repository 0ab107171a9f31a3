// Slow readers and queued floods (ADR 321, second amendment): a client that pipelines requests and
// never reads the answers holds one slot per connection at most, and only until its answer stalls;
// a stored file's download holds none while it is sent (ADR 321, fourth amendment);
// requests waiting for a slot are dispatched fairly across clients and networks, so an honest
// request does not wait behind a queue an attacker filled. TRUST_PROXY=fly lets the test speak
// from any address.
import diagnostics from "node:diagnostics_channel";
import { readdirSync, readlinkSync } from "node:fs";
import type http from "node:http";
import net from "node:net";
import { describe, expect, it } from "vitest";
import { multipart, validFields, webmBytes } from "../integration/landing-fixtures";
import { answerWithin, slotServer, stopAll, until } from "./slot-server";
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

/** A visitor's own 12 MB recording: GET /api/audio/<key> with the visitor's cookie, from any address. */
async function postRecording(ip: string) {
  const recording = Buffer.concat([webmBytes(), Buffer.alloc(12_000_000)]);
  const res = await server().fetch("/api/requests", {
    method: "POST",
    headers: { "fly-client-ip": ip },
    body: multipart(validFields(), [{ field: "audio", name: "memo.webm", bytes: recording }]),
  });
  expect(res.status).toBe(201);
  const { audioPath } = (await res.json()) as { audioPath: string };
  expect(audioPath).toMatch(/\.webm$/);
  return { audioPath, cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] };
}

/** Stored files (`.dat`) this process has open. */
function openStoredFiles(): number {
  return readdirSync("/proc/self/fd").filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).endsWith(".dat");
    } catch {
      return false;
    }
  }).length;
}

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

  it("in parallel: 16 downloads of a 12 MB recording that are never read hold no slot; GET / is answered at once; the stall cut still ends them", async () => {
    const { audioPath, cookie } = await postRecording("198.18.20.1");
    const ips = ["10.3.3.1", "10.3.3.2", "10.4.4.1", "10.4.4.2"];
    const started = new Set<http.IncomingMessage>();
    const count = (message: unknown) => {
      const { request } = message as { request: http.IncomingMessage };
      if (ips.includes(String(request.headers["fly-client-ip"]))) started.add(request);
    };
    diagnostics.subscribe("http.server.request.start", count);
    const { hostname, port } = new URL(server().url);
    // 4 connections from each address (a client's quarter, two networks' halves: all 16 slots).
    const sockets = ips.flatMap((ip) =>
      Array.from({ length: 4 }, () => {
        const socket = net.connect(Number(port), hostname);
        socket.on("error", () => {});
        socket.pause();
        socket.write(
          `GET /api/audio/${audioPath} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nFly-Client-IP: ${ip}\r\nCookie: ${cookie}\r\n\r\n`,
        );
        return socket;
      }),
    );
    try {
      await until(() => started.size === 16);
      // Each answer is a stream of the file: its slot is given back as its headers go out (before:
      // the 16 held every slot until the write-stall cut, 15 s later).
      const begun = Date.now();
      expect(await visit("198.18.21.1")).toBe(200);
      expect(Date.now() - begun).toBeLessThan(5000);
      await until(() => stats().active === 0 && stats().waiting === 0);
      // The downloads are still being sent, unread: 12 MB does not fit the kernel's buffers.
      expect(started.size).toBe(16);
      expect([...started].every((request) => !request.socket.destroyed)).toBe(true);
      // Nobody reads them: the write-stall cut still ends each connection (after ~15 s).
      await until(() => [...started].every((request) => request.socket.destroyed));
    } finally {
      diagnostics.unsubscribe("http.server.request.start", count);
      for (const socket of sockets) socket.destroy();
    }
  }, 60_000);

  it("in parallel: 60 downloads of a recording aborted after their first bytes (whole and ranged) leave no file open", async () => {
    const { audioPath, cookie } = await postRecording("198.18.22.1");
    const before = openStoredFiles();
    await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        const controller = new AbortController();
        const res = await server().fetch(`/api/audio/${audioPath}`, {
          headers: {
            cookie,
            "fly-client-ip": `10.6.${i}.1`,
            ...(i % 2 ? { range: "bytes=0-" } : {}),
          },
          signal: controller.signal,
        });
        expect(res.status).toBe(i % 2 ? 206 : 200);
        await res.body?.getReader().read();
        controller.abort();
      }),
    );
    // Before: every aborted download kept its file open for good (the library's stream had no cancel).
    await until(() => openStoredFiles() <= before);
    expect(stats()).toMatchObject({ active: 0, waiting: 0 });
  }, 60_000);
});
