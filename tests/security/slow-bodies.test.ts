// Slow bodies (ADR 321): a client that trickles its request bodies must not hold the request slots
// (ADR 195, 197). Small bodies are read before a slot is taken, bodies in transit hold at most half
// the slots (one network's uploads a quarter of those), each IPv4 /24 and IPv6 /48 at most half
// (tests/security/network-shares.test.ts), and every body has a deadline that grows with its size
// at a minimum rate. TRUST_PROXY=fly lets the test speak from any address.
// The read-ahead budget is reserved by the bytes that arrived, a small body that does not fit it
// has its own share of the slots, and every body a total deadline (here 15 s; ADR 321 amendment).
import { describe, expect, it } from "vitest";
import { answerWithin, slotServer, stopAll, until, upload } from "./slot-server";
import { formBody, type Trickle, trickle } from "./trickle";

const { server, stats, visit, trickleFrom, submit } = slotServer();

/** Uploads sent a little above the floor pace (10 kB/s, 8 KiB/s = 8,192 B/s): 2 from each address. */
async function floorPaceUploads(ips: string[]) {
  const { body, contentType } = await upload(2_000_000);
  return trickleFrom(ips, 2, { body, contentType, bytes: 1000, everyMs: 100 });
}

describe("slow bodies", () => {
  it("16 small bodies at one byte per 2 s from 4 clients (or one /48) leave GET / to everyone; each is cut at its deadline", async () => {
    const ipv4 = ["203.0.113.1", "198.51.100.1", "192.0.2.1", "100.64.0.1"];
    const ipv6 = [
      "2001:db8:1:100::1",
      "2001:db8:1:200::1",
      "2001:db8:1:300::1",
      "2001:db8:1:400::1",
    ];
    const started = Date.now();
    const posts = [
      ...(await trickleFrom(ipv4, 4, formBody(1000))),
      ...(await trickleFrom(ipv6, 4, formBody(1000))),
    ];
    try {
      // Read ahead of the bound: none of the 32 holds a slot, a visitor is answered at once.
      expect(await visit("198.18.0.1")).toBe(200);
      expect(await visit("2001:db8:2::1")).toBe(200);
      expect(stats()).toMatchObject({ active: 0, intake: { reading: 32 } });
      // The deadline of a 1 kB body: 10 s plus its size at 8 KiB/s; then 408 and the connection closes.
      const answers = await Promise.all(posts.map((post) => post.answered));
      expect(answers).toEqual(Array(32).fill(408));
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(posts.every((post) => post.sent() < 1000)).toBe(true);
      expect(stats().intake).toMatchObject({ reading: 0, bytes: 0 });
    } finally {
      stopAll(posts);
    }
  }, 60_000);

  it("uploads in transit hold at most half the slots; one slower than 8 KiB/s is cut after its grace", async () => {
    const body = await upload(200_000);
    const ips = ["203.0.113.20", "198.51.100.20", "192.0.2.20", "100.64.0.20"];
    const posts = await trickleFrom(ips, 4, body);
    try {
      await until(() => stats().active + stats().waiting === 16);
      expect(stats()).toMatchObject({ active: 8, waiting: 8 });
      // The other half of the slots stays with requests whose bodies are complete.
      expect(await visit("198.18.0.2")).toBe(200);
      // After the grace (10 s) a body must have come at 8 KiB/s since: these are cut with 408 and
      // the waiting ones get their slots (and are cut in turn).
      const answers = await Promise.all(posts.map((post) => post.answered));
      expect(answers).toEqual(Array(16).fill(408));
      await until(() => stats().active === 0 && stats().waiting === 0);
    } finally {
      stopAll(posts);
    }
  }, 60_000);

  it("an upload above the minimum rate is read whole, however long it takes within the total deadline", async () => {
    // 120 KB at ~12 KiB/s: longer than the grace, never below 8 KiB/s since it started.
    const { body, contentType } = await upload(120_000);
    const post = trickle(server().url, {
      ip: "203.0.113.30",
      body,
      contentType,
      bytes: 1200,
      everyMs: 100,
    });
    expect(await post.answered).toBe(201);
  }, 60_000);

  it("uploads just above the floor pace from 4 clients in 2 networks hold 2 upload slots per network; an honest upload from a third network is read at once", async () => {
    // 2 uploads from each of 4 clients, two per /24: before, their 8 took the uploads' whole half
    // and an honest upload waited for one of them to end (minutes, at most the body deadline).
    const uploads = await floorPaceUploads([
      "203.0.113.80",
      "203.0.113.81",
      "198.51.100.80",
      "198.51.100.81",
    ]);
    try {
      await until(() => stats().inTransit + stats().waiting === 8);
      const { body, contentType } = await upload(200_000);
      const started = Date.now();
      const honest = trickle(server().url, { ip: "192.0.2.80", body, contentType, everyMs: 0 });
      expect(await answerWithin(honest, 5000)).toBe(201);
      expect(Date.now() - started).toBeLessThan(5000);
      // The attackers' networks still hold 2 upload slots each; the other 4 of theirs wait.
      expect(stats()).toMatchObject({ inTransit: 4, waiting: 4 });
    } finally {
      stopAll(uploads);
    }
    await until(() => stats().active === 0 && stats().waiting === 0);
  }, 60_000);

  it("in parallel: 100 small bodies at once, all but their last byte sent, read at most 4 MB ahead; the rest wait for the small bodies' share of the slots", async () => {
    const ips = Array.from({ length: 100 }, (_, i) => `10.${i}.0.1`);
    const posts = await trickleFrom(ips, 1, {
      ...formBody(60_000),
      bytes: 59_999,
      everyMs: 60_000,
    });
    try {
      await until(
        () =>
          stats().intake.reading + stats().active + stats().waiting === 100 && stats().active === 4,
      );
      const { intake } = stats();
      expect(intake.bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
      expect(intake.peakBytes).toBeLessThanOrEqual(4 * 1024 * 1024);
      // 4 MB hold at most 69 bodies of 60 kB (those still arriving); the bodies that did not fit
      // are read in a slot of the small bodies' own share, at most 4 of them at once.
      expect(intake.reading).toBeLessThanOrEqual(69);
      expect(intake.reading).toBeGreaterThan(60);
      expect(stats()).toMatchObject({ active: 4, smallInTransit: 4, inTransit: 0 });
      expect(await visit("198.18.0.3")).toBe(200);
    } finally {
      stopAll(posts);
    }
    await until(() => stats().intake.reading === 0 && stats().active === 0);
    expect(stats().intake.bytes).toBe(0);
  }, 60_000);

  it("in parallel: 64 bodies declaring 64 KB that send one byte reserve no budget; with floor-pace uploads holding the transit half an honest submission is answered at once", async () => {
    const uploads = await floorPaceUploads([
      "203.0.113.60",
      "198.51.100.60",
      "192.0.2.60",
      "100.64.0.60",
    ]);
    const idle: Trickle[] = [];
    try {
      await until(() => stats().inTransit === 8);
      // 4 clients in 4 networks, 16 each: before, their declared 64 KB reserved the whole 4 MB.
      idle.push(
        ...(await trickleFrom(["203.0.113.61", "198.51.100.61", "192.0.2.61", "100.64.0.61"], 16, {
          ...formBody(64 * 1024),
          everyMs: 60_000,
        })),
      );
      await until(() => stats().intake.reading === 64);
      const started = Date.now();
      expect(await submit("198.18.0.60")).toBe(201);
      expect(await visit("198.18.0.61")).toBe(200);
      expect(Date.now() - started).toBeLessThan(5000);
      expect(stats().intake.bytes).toBeLessThanOrEqual(64);
    } finally {
      stopAll([...uploads, ...idle]);
    }
    await until(() => stats().active === 0 && stats().intake.reading === 0);
  }, 60_000);

  it("in parallel: the budget filled with real bytes by 4 clients and floor-pace uploads holding the transit half: an honest submission takes a slot of the small bodies' own share", async () => {
    const uploads = await floorPaceUploads([
      "203.0.113.70",
      "198.51.100.70",
      "192.0.2.70",
      "100.64.0.70",
    ]);
    const fillers: Trickle[] = [];
    try {
      await until(() => stats().inTransit === 8);
      // Each client its quarter of the budget: 16 bodies of 64 KB, all but the last byte sent.
      fillers.push(
        ...(await trickleFrom(["203.0.113.71", "198.51.100.71", "192.0.2.71", "100.64.0.71"], 16, {
          ...formBody(64 * 1024),
          bytes: 64 * 1024 - 1,
          everyMs: 60_000,
        })),
      );
      await until(() => stats().intake.bytes === 64 * (64 * 1024 - 1));
      const started = Date.now();
      expect(await submit("198.18.0.70")).toBe(201);
      expect(await visit("198.18.0.71")).toBe(200);
      expect(Date.now() - started).toBeLessThan(5000);
      // A client holds at most its quarter of the budget: a 17th body of one filler is read in a slot.
      const extra = trickle(server().url, {
        ip: "203.0.113.71",
        ...formBody(64 * 1024),
        bytes: 64 * 1024 - 1,
        everyMs: 60_000,
      });
      fillers.push(extra);
      await until(() => stats().smallInTransit === 1);
      expect(stats().intake.bytes).toBe(64 * (64 * 1024 - 1));
    } finally {
      stopAll([...uploads, ...fillers]);
    }
    await until(() => stats().active === 0 && stats().intake.reading === 0);
  }, 60_000);

  it("an upload above the floor pace is cut at the total deadline (408)", async () => {
    const { body, contentType } = await upload(2_000_000);
    const started = Date.now();
    const post = trickle(server().url, {
      ip: "203.0.113.80",
      body,
      contentType,
      bytes: 1000,
      everyMs: 100,
    });
    expect(await answerWithin(post, 25_000)).toBe(408);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15_000);
    expect(post.sent()).toBeLessThan(body.length);
    await until(() => stats().active === 0);
  }, 60_000);

  it("an honest upload of 9.5 MB at loopback speed is read whole", async () => {
    const { body, contentType } = await upload(9_500_000);
    const post = trickle(server().url, { ip: "203.0.113.90", body, contentType, everyMs: 0 });
    expect(await answerWithin(post, 30_000)).toBe(201);
  }, 60_000);
});
