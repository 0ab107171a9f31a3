// The network's share of the request slots (ADR 321): one IPv4 /24 or IPv6 /48 holds at most half
// of them, whatever its clients. The slots are held with uploads in transit, so this server lets one
// network send 8 at once (MAX_UPLOADS_PER_NETWORK; by default a quarter of the uploads' half, which
// tests/security/slow-bodies.test.ts checks). TRUST_PROXY=fly lets the test speak from any address.
import { describe, expect, it } from "vitest";
import { slotServer, stopAll, until, upload } from "./slot-server";

const { stats, visit, trickleFrom } = slotServer({ MAX_UPLOADS_PER_NETWORK: "8" });

describe("one network's share of the slots", () => {
  it("two neighbours in one /24 hold at most half the slots between them; a third waits, another network does not", async () => {
    const body = await upload(200_000);
    const first = await trickleFrom(["203.0.113.40"], 2, body);
    const second = await trickleFrom(["203.0.113.41"], 2, body);
    let third: Promise<number | "timeout"> | undefined;
    try {
      await until(() => stats().active === 4);
      // Their /24 may hold 8 of the 16 slots: a GET of each neighbour still gets one.
      expect(await visit("203.0.113.40")).toBe(200);
      // Two more uploads each: the /24 holds 8 slots now (each neighbour its share of 4).
      first.push(...(await trickleFrom(["203.0.113.40"], 2, body)));
      second.push(...(await trickleFrom(["203.0.113.41"], 2, body)));
      await until(() => stats().active === 8);
      const waitingBefore = stats().waiting;
      third = visit("203.0.113.42", 30_000);
      await until(() => stats().waiting === waitingBefore + 1);
      // Another network is served at once, past the waiting neighbour.
      expect(await visit("198.51.100.40")).toBe(200);
      expect(await visit("2001:db8:40::1")).toBe(200);
      expect(stats().waiting).toBe(waitingBefore + 1);
      // One neighbour's uploads end: the third neighbour's request gets a slot.
      stopAll(first);
      expect(await third).toBe(200);
    } finally {
      stopAll([...first, ...second]);
      await third;
    }
  }, 60_000);

  it("IPv6: two /56 neighbours in one /48 hold at most half the slots between them", async () => {
    const body = await upload(200_000);
    const posts = await trickleFrom(["2001:db8:50:100::1", "2001:db8:50:200::1"], 4, body);
    let third: Promise<number | "timeout"> | undefined;
    try {
      await until(() => stats().active === 8);
      const waitingBefore = stats().waiting;
      third = visit("2001:db8:50:300::1", 30_000);
      await until(() => stats().waiting === waitingBefore + 1);
      expect(await visit("2001:db8:51::1")).toBe(200);
      stopAll(posts);
      expect(await third).toBe(200);
    } finally {
      stopAll(posts);
      await third;
    }
  }, 60_000);
});
