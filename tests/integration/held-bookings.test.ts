// Held bookings (ADR 355) over HTTP against the built server: a request held in the spam
// quarantine books like any other, but at most `spam.heldBookingsPerDay` (default 3) of its
// bookings a day hold their slot — under 20 parallel bookings and across a restart; above the cap
// the booking is recorded and blocks nobody. The release checks the slot again: still free, the
// booking is confirmed; taken meanwhile, the admin reads "Termin nicht mehr frei" and the release
// mail (the receipt) offers the visitor's signed booking link instead.
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getToast } from "~/server/http/flash.server";
import { openBody } from "~/server/mail/secrets.server";
import { db } from "~/server/platform/db.server";
import { appointments, mailOutbox, requests } from "~db/schema";
import { freeSlots, slotsOf } from "./booking-days";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;

async function start() {
  server = await startTestServer({
    SMTP_URL: undefined,
    SUBMISSION_RATE_LIMIT: "1000/1h",
    BOOKING_RATE_LIMIT: "1000/1h",
  });
  token = await server.adminToken();
}
beforeAll(start);
afterAll(async () => {
  await server.close();
  delete process.env.BOOKING_RATE_LIMIT;
});

type Visitor = { id: number; cookie: string };

/** A submission without proof of work through the API: held in the quarantine (ADR 250). */
async function heldRequest(name: string): Promise<Visitor> {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields({ name })),
  });
  expect(res.status).toBe(201);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  const id = ((await res.json()) as { id: number }).id;
  expect(db().select().from(requests).where(eq(requests.id, id)).get()?.quarantinedAt).toBeTruthy();
  return { id, cookie };
}

const book = (who: Visitor, startTime: string) =>
  server.fetch("/api/calcom/book-appointment", {
    method: "POST",
    headers: { cookie: who.cookie },
    json: { requestId: who.id, startTime, timeZone: "Europe/Berlin" },
  });

const dayOf = (iso: string) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(new Date(iso));

/** Whether the booking dialog still offers `start` to everybody. */
const offered = async (start: string) => (await slotsOf(server, dayOf(start))).includes(start);

const rowOf = (requestId: number) =>
  db().select().from(appointments).where(eq(appointments.requestId, requestId)).get();

/** Releases through the page ("Freigeben" in "Prüfen") and returns the toast. */
async function releaseOnPage(id: number) {
  const cookie = await server.adminCookie();
  const res = await server.fetch("/admin/requests?tab=quarantine", {
    method: "POST",
    headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ intent: "release", id: String(id) }).toString(),
  });
  expect(res.status).toBe(302);
  const flash = (res.headers.get("set-cookie") ?? "").match(/__flash=[^;]*/)?.[0] ?? "";
  const { toast } = await getToast(new Request("http://x/", { headers: { cookie: flash } }));
  return toast?.message ?? "";
}

const mailsOf = (requestId: number, kind: string) =>
  db()
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.requestId, requestId), eq(mailOutbox.kind, kind)))
    .all();

let visitors: Visitor[] = [];
let slots: string[] = [];
const booked = new Map<number, string>();

describe("held bookings", () => {
  it("20 parallel bookings of held requests: all answered like any other, exactly 3 hold their slot", async () => {
    slots = await freeSlots(server, 24);
    visitors = [];
    for (let i = 0; i < 20; i++) visitors.push(await heldRequest(`Gehalten Nr${i}x`));
    const answers = await Promise.all(visitors.map((v, i) => book(v, slots[i] as string)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201));
    const bodies = (await Promise.all(answers.map((a) => a.json()))) as {
      appointment: { status: string; startTime: string };
    }[];
    // The visitor cannot tell: every answer reads booked.
    expect(new Set(bodies.map((b) => b.appointment.status))).toEqual(new Set(["ACCEPTED"]));
    expect(JSON.stringify(bodies)).not.toMatch(/HELD|held|quarant/i);
    for (const [i, v] of visitors.entries()) booked.set(v.id, slots[i] as string);

    const stillOffered = await Promise.all(visitors.map((_, i) => offered(slots[i] as string)));
    expect(stillOffered.filter((free) => !free)).toHaveLength(3);
    const rows = visitors.map((v) => rowOf(v.id));
    expect(rows.filter((r) => r?.heldBooking === "holds")).toHaveLength(3);
    expect(rows.filter((r) => r?.heldBooking === "waits" && r.status === "HELD")).toHaveLength(17);
    // One per request still holds for a held request.
    expect((await book(visitors[0] as Visitor, slots[20] as string)).status).toBe(409);
    // No mail and no webhook went to the typed addresses.
    expect(visitors.flatMap((v) => mailsOf(v.id, "booking-confirmation"))).toHaveLength(0);
  });

  it("after a restart the day's cap is still used up: a new held booking holds nothing", async () => {
    await server.close();
    await start();
    const late = await heldRequest("Nach dem Neustart");
    expect((await book(late, slots[21] as string)).status).toBe(201);
    expect(await offered(slots[21] as string)).toBe(true);
    expect(rowOf(late.id)).toMatchObject({ heldBooking: "waits", status: "HELD" });
    booked.set(late.id, slots[21] as string);
  });

  it("a release whose slot was taken meanwhile: 'Termin nicht mehr frei' and a new booking link", async () => {
    const index = visitors.findIndex((v) => rowOf(v.id)?.heldBooking === "waits");
    const waiting = visitors[index] as Visitor;
    const start = booked.get(waiting.id) as string;
    // Somebody else (a released, ordinary request) takes the slot the held booking only noted.
    const other = await heldRequest("Jemand anderes");
    const release = await server.fetch(`/api/requests/${other.id}`, {
      method: "PATCH",
      token,
      json: { quarantined: false },
    });
    expect(release.status).toBe(200);
    expect((await book(other, start)).status).toBe(201);
    expect(await offered(start)).toBe(false);

    const toast = await releaseOnPage(waiting.id);
    expect(toast).toContain("Termin nicht mehr frei");
    expect(rowOf(waiting.id)).toMatchObject({ status: "CANCELLED", heldBooking: "gone" });
    expect(mailsOf(waiting.id, "booking-confirmation")).toHaveLength(0);
    const receipt = openBody(mailsOf(waiting.id, "request-receipt")[0]?.text ?? "") ?? "";
    expect(receipt).toContain("inzwischen vergeben");
    expect(receipt).toContain("Neuen Termin aussuchen");
    const link = receipt.match(/https?:\/\/\S*\/meine-anfrage\?token=[^\s)]+/)?.[0] ?? "";
    expect(new URL(link).searchParams.get("ziel")).toBe("termin");
    // The link is the visitor's signed one: it opens the booking page.
    const opened = await server.fetch(new URL(link).pathname + new URL(link).search);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toMatch(/termin/);

    // The admin's list shows it on the released request's row.
    const cookie = await server.adminCookie();
    const html = await (
      await server.fetch(`/admin/requests?q=Nr${index}x`, {
        headers: { cookie },
      })
    ).text();
    expect(html).toContain("Termin nicht mehr frei");
    // And Termine (the admin's appointment JSON) marks that booking.
    const listed = (await (
      await server.fetch(`/api/admin/appointments?search=Nr${index}x`, { token })
    ).json()) as { appointments: { status: string; slotGone?: boolean }[] };
    expect(listed.appointments).toEqual([
      expect.objectContaining({ status: "CANCELLED", slotGone: true }),
    ]);
    const termine = await (
      await server.fetch(`/admin/appointments?search=Nr${index}x`, { headers: { cookie } })
    ).text();
    expect(termine).toMatch(/data-slot-gone[^>]*>\s*<strong>Termin nicht mehr frei<\/strong>/);
    // The visitor may book again.
    expect((await book(waiting, slots[22] as string)).status).toBe(201);
  });

  it("a release whose noted slot is still free books it; one that held its slot keeps it", async () => {
    const waiting = visitors.find((v) => rowOf(v.id)?.heldBooking === "waits") as Visitor;
    const start = booked.get(waiting.id) as string;
    expect(await offered(start)).toBe(true);
    const toast = await releaseOnPage(waiting.id);
    expect(toast).not.toContain("Termin nicht mehr frei");
    expect(rowOf(waiting.id)).toMatchObject({ status: "ACCEPTED" });
    expect(await offered(start)).toBe(false);
    expect(mailsOf(waiting.id, "booking-confirmation")).toHaveLength(1);
    const receipt = openBody(mailsOf(waiting.id, "request-receipt")[0]?.text ?? "") ?? "";
    expect(receipt).toContain("Meine Anfrage öffnen");
    expect(receipt).not.toContain("inzwischen vergeben");

    const holding = visitors.find((v) => rowOf(v.id)?.heldBooking === "holds") as Visitor;
    expect(await releaseOnPage(holding.id)).not.toContain("Termin nicht mehr frei");
    expect(rowOf(holding.id)).toMatchObject({ status: "ACCEPTED", heldBooking: "holds" });
    expect(mailsOf(holding.id, "booking-confirmation")).toHaveLength(1);
  });

  it("the cap is a setting (PATCH /api/configuration, clamped 0–50): 0 lets no held booking hold a slot", async () => {
    const patch = (heldBookingsPerDay: unknown) =>
      server.fetch("/api/configuration", {
        method: "PATCH",
        token,
        json: { spam: { blocklist: [], quarantineDays: 30, heldBookingsPerDay } },
      });
    let res = await patch(999);
    expect(res.status).toBe(200);
    const stored = await (await server.fetch("/api/configuration", { token })).json();
    expect(stored.spam.heldBookingsPerDay).toBe(50);
    res = await patch(0);
    expect(res.status).toBe(200);
    // Raising the cap would let the next held booking hold its slot; 0 lets none.
    const one = await heldRequest("Kontingent null");
    expect((await book(one, slots[23] as string)).status).toBe(201);
    expect(rowOf(one.id)?.heldBooking).toBe("waits");
    expect(await offered(slots[23] as string)).toBe(true);
  });
});
