// Network counters beside the client's (ADR 322): an IPv6 /48 is 256 clients of /56 (a tunnel
// broker hands them out for free), so submissions and bookings also count per /48 — and per IPv4
// /24 — with their own, higher limits. The client's own limit stays as it is: neighbours behind
// one office or carrier network each keep theirs. Every limit is tested with parallel requests.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freeSlots } from "./booking-days";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

const LIMITS = {
  SUBMISSION_RATE_LIMIT: "2/1h",
  SUBMISSION_NETWORK_RATE_LIMIT: "5/1h",
  BOOKING_RATE_LIMIT: "2/1h",
  BOOKING_NETWORK_RATE_LIMIT: "3/1h",
  TRUST_PROXY: "fly",
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(LIMITS);
});
afterAll(async () => {
  await server.close();
  for (const key of Object.keys(LIMITS)) delete process.env[key];
});

const from = (ip: string) => ({ "fly-client-ip": ip });
const submit = (ip: string) =>
  server.fetch("/api/requests", {
    method: "POST",
    headers: from(ip),
    body: multipart(validFields()),
  });
const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe("network counters beside the client's", () => {
  it("submissions: four /56 of one /48 share 5 per hour between them, sent at once; another /48 has its own", async () => {
    const ips = [
      "2001:db8:a:100::1",
      "2001:db8:a:200::1",
      "2001:db8:a:300::1",
      "2001:db8:a:400::1",
    ];
    const statuses = await Promise.all(
      ips.flatMap((ip) => [submit(ip), submit(ip)]).map(async (res) => (await res).status),
    );
    expect(count(statuses, 201)).toBe(5);
    expect(count(statuses, 429)).toBe(3);
    const refused = await submit("2001:db8:a:500::1");
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatch(/^Zu viele Versuche\. Bitte warte \d+ Minuten?/);
    expect((await submit("2001:db8:b:100::1")).status).toBe(201);
  });

  it("submissions: neighbours in one /24 each keep their own 2; together at most 5", async () => {
    const neighbours = ["203.0.113.1", "203.0.113.2", "203.0.113.3"];
    const statuses = await Promise.all(
      neighbours.flatMap((ip) => [submit(ip), submit(ip)]).map(async (res) => (await res).status),
    );
    // None of them reached its own limit of 2: only the /24's 5 refused the sixth.
    expect(count(statuses, 201)).toBe(5);
    expect(count(statuses, 429)).toBe(1);
    expect((await submit("198.51.100.1")).status).toBe(201);
  });

  it("a refused submission gives back its network point", async () => {
    // Four refused bodies (no name) from one /48 leave all 5 points of the network.
    const bad = await Promise.all(
      ["2001:db8:c:100::1", "2001:db8:c:200::1", "2001:db8:c:300::1", "2001:db8:c:400::1"].map(
        (ip) =>
          server.fetch("/api/requests", {
            method: "POST",
            headers: from(ip),
            body: multipart(validFields({ name: "" })),
          }),
      ),
    );
    expect(bad.map((r) => r.status)).toEqual([400, 400, 400, 400]);
    const good = await Promise.all(
      ["2001:db8:c:500::1", "2001:db8:c:500::2", "2001:db8:c:600::1", "2001:db8:c:600::2"].map(
        async (ip) => (await submit(ip)).status,
      ),
    );
    expect(good).toEqual([201, 201, 201, 201]);
  });

  it("bookings: four /56 of one /48 share 3 between them, booked at once", async () => {
    const slots = await freeSlots(server, 6);
    const visitors: { id: number; cookie: string }[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await submit(`2001:db8:d${i}::1`);
      expect(res.status).toBe(201);
      visitors.push({
        id: ((await res.json()) as { id: number }).id,
        cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] as string,
      });
    }
    const ips = ["2001:db8:e:100::1", "2001:db8:e:200::1", "2001:db8:e:300::1"];
    const statuses = await Promise.all(
      visitors.map(async (visitor, i) => {
        const res = await server.fetch("/api/calcom/book-appointment", {
          method: "POST",
          headers: { ...from(ips[i % 3] as string), cookie: visitor.cookie },
          json: { requestId: visitor.id, startTime: slots[i], timeZone: "Europe/Berlin" },
        });
        return res.status;
      }),
    );
    expect(count(statuses, 201)).toBe(3);
    expect(count(statuses, 429)).toBe(3);
  });
});
