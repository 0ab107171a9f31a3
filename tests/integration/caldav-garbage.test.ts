// A calendar server that answers garbage (ADR 335) against a loopback stand-in: the free-busy-
// query path, discovery through /.well-known/caldav, and malformed XML or iCalendar, 10 MB of
// events, a redirect loop, a redirect to a forbidden address, a wrong content type — each one
// warning on the connection, never a 500 and never a stalled server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { berlinTime } from "~/lib/booking-calendar";
import { type CaldavStandIn, startCaldavStandIn } from "../caldav-stand-in";
import { testDb } from "./auth-helpers";
import { nextBookableWeekday } from "./booking-days";
import { startTestServer, type TestServer } from "./server";

let standIn: CaldavStandIn;
let server: TestServer;
let token: string;

const api = (path: string, method = "GET", json?: unknown) =>
  server.fetch(path, { method, token, json });
const run = (query: string) => {
  const db = testDb();
  try {
    db.prepare(query).run();
  } finally {
    db.close();
  }
};
const utc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

async function slotsOf(day: string): Promise<string[]> {
  const res = await server.fetch("/api/calcom/available-slots", {
    method: "POST",
    json: { startDate: day, day },
  });
  expect(res.status).toBe(200);
  return ((await res.json()).slots as { time: string }[]).map((s) => s.time);
}

beforeAll(async () => {
  standIn = await startCaldavStandIn();
  server = await startTestServer({ WEBHOOK_ALLOW_LOCAL: "true" });
  token = await server.adminToken();
});
afterAll(async () => {
  await server?.close();
  await standIn?.close();
});

describe("free-busy-query where the calendar offers it", () => {
  it("discovers through /.well-known/caldav, lists only calendars that hold events, asks free-busy", async () => {
    const res = await api("/api/admin/account/calendar", "PUT", {
      serverUrl: standIn.url.replace("http://", "http://"),
      username: "tom",
      password: "tom-passwort",
    });
    expect(res.status).toBe(200);
    const { calendar } = await res.json();
    expect(calendar.calendars.map((c: { name: string }) => c.name)).toEqual(["Arbeit & Termine"]);
    expect(standIn.requests.some((r) => r.url === "/.well-known/caldav")).toBe(true);

    const day = nextBookableWeekday();
    standIn.busy = [`${utc(berlinTime(day, 10, 0))}/${utc(berlinTime(day, 11, 0))}`];
    const slots = await slotsOf(day);
    expect(slots).not.toContain(berlinTime(day, 10, 0).toISOString());
    expect(slots).not.toContain(berlinTime(day, 10, 30).toISOString());
    expect(slots).toContain(berlinTime(day, 11, 0).toISOString());
    const asked = standIn.requests.filter((r) => r.method === "REPORT");
    expect(asked.at(-1)?.body).toContain("free-busy-query");
  });
});

describe("garbage costs one warning on the connection", () => {
  const cases: [CaldavStandIn["mode"], RegExp][] = [
    ["malformed-xml", /Ungültiges XML|Multi-Status/],
    ["huge", /größer als 2 MB/],
    ["redirect-loop", /Mehr als 5 Weiterleitungen/],
    ["wrong-type", /Inhaltstyp/],
    ["redirect-metadata", /nicht erlaubt/],
    ["garbage-ics", /Frei\/Belegt/],
  ];
  for (const [mode, message] of cases) {
    it(`${mode}: the test names it, slots still answer 200, the dashboard warns`, async () => {
      standIn.mode = mode;
      try {
        const tested = await api("/api/admin/account/calendar/test", "POST");
        if (mode === "garbage-ics") expect(tested.status).toBe(200);
        else {
          expect(tested.status).toBe(502);
          expect((await tested.json()).error).toMatch(message);
        }
        run("UPDATE calendar_busy SET fetched_at = 0");
        const day = nextBookableWeekday();
        const started = Date.now();
        await slotsOf(day);
        expect(Date.now() - started).toBeLessThan(5000);
        const warnings = await (await api("/api/admin/account/calendar")).json();
        // The slot check's own failure is the connection's warning now (its wording per request).
        expect(warnings.calendar.lastError).toMatch(mode === "garbage-ics" ? message : /./);
        expect((await server.fetch("/healthz")).status).toBe(200);
      } finally {
        standIn.mode = "ok";
      }
    });
  }

  it("403 and a server without a principal are named in plain German", async () => {
    standIn.mode = "forbidden";
    try {
      const res = await api("/api/admin/account/calendar", "PUT", {
        serverUrl: standIn.url,
        username: "tom",
        password: "tom-passwort",
      });
      expect(res.status).toBe(400);
      expect((await res.json()).error).toMatch(/Zugriff verweigert \(403\)/);
      standIn.mode = "no-principal";
      const none = await api("/api/admin/account/calendar", "PUT", {
        serverUrl: standIn.url,
        username: "tom",
        password: "tom-passwort",
      });
      expect((await none.json()).error).toMatch(/Kein Benutzerkonto gefunden/);
    } finally {
      standIn.mode = "ok";
    }
    const unknown = await api("/api/admin/account/calendar", "PUT", {
      serverUrl: "https://kalender.invalid",
      username: "tom",
      password: "tom-passwort",
    });
    expect((await unknown.json()).error).toMatch(/Adresse nicht gefunden/);
  });
});
