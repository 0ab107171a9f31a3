import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import { eq } from "drizzle-orm";
import { HttpResponse, http } from "msw";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { appointments, requests } from "~db/schema";
import { CALCOM_URL } from "../mocks/calcom";
import { nextBookableWeekday } from "./booking-days";
import { mswListenOptions, setupMocks } from "./msw";
import { startTestServer, type TestServer } from "./server";

type OpenApiParam = { name: string; in: string; required?: boolean; schema?: object };
type OpenApiOp = { parameters?: OpenApiParam[]; requestBody?: unknown };
const spec = JSON.parse(readFileSync("tests/fixtures/calcom-openapi-subset.json", "utf8")) as {
  paths: Record<string, Record<string, OpenApiOp>>;
};
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(spec, "calcom");

const KNOWN_VERSIONS: Record<string, string> = {
  "GET /v2/event-types": "2024-06-14",
  "GET /v2/slots": "2024-09-04",
  "POST /v2/bookings": "2024-08-13",
  "GET /v2/bookings/{bookingUid}": "2024-08-13",
  "POST /v2/bookings/{bookingUid}/cancel": "2024-08-13",
};

/** Validates one outgoing request against the OpenAPI subset; returns the problems found. */
async function validate(request: Request): Promise<string[]> {
  const url = new URL(request.url);
  const path = url.pathname;
  const template = Object.keys(spec.paths).find((p) =>
    new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(path),
  );
  if (!template) return [`unknown path ${path}`];
  const method = request.method.toLowerCase();
  const op = spec.paths[template][method];
  if (!op) return [`unknown method ${method} ${template}`];
  const problems: string[] = [];
  for (const param of op.parameters ?? []) {
    const value =
      param.in === "query"
        ? url.searchParams.get(param.name)
        : param.in === "header"
          ? request.headers.get(param.name)
          : "x";
    if (param.required && !value) problems.push(`missing ${param.in} ${param.name}`);
  }
  for (const key of url.searchParams.keys()) {
    if (!(op.parameters ?? []).some((p) => p.in === "query" && p.name === key))
      problems.push(`unknown query ${key}`);
  }
  const expectedVersion = KNOWN_VERSIONS[`${request.method} ${template}`];
  if (request.headers.get("cal-api-version") !== expectedVersion)
    problems.push(
      `cal-api-version ${request.headers.get("cal-api-version")} != ${expectedVersion}`,
    );
  if (!/^Bearer cal_/.test(request.headers.get("authorization") ?? ""))
    problems.push("no Bearer cal_ key");
  if (op.requestBody) {
    const pointer = `calcom#/paths/${template.replace(/~/g, "~0").replace(/\//g, "~1")}/${method}/requestBody/content/application~1json/schema`;
    // A plain booking matches both the single and the recurring alternative of the oneOf (recurrence
    // fields are optional there), so a one-off booking is checked against its own schema.
    const ref =
      template === "/v2/bookings"
        ? "calcom#/components/schemas/CreateBookingInput_2024_08_13"
        : pointer;
    const check = ajv.compile({ $ref: ref });
    const body = await request.clone().json();
    if (!check(body)) problems.push(`body: ${ajv.errorsText(check.errors)}`);
  }
  return problems;
}

const msw = setupMocks();
const sent: { method: string; url: string; problems: string[] }[] = [];
let server: TestServer;
let token: string;
const SECRET = "whsec_test";

beforeAll(async () => {
  msw.listen(mswListenOptions);
  msw.events.on("request:start", async ({ request }) => {
    if (request.url.startsWith(CALCOM_URL))
      sent.push({
        method: request.method,
        url: request.url,
        problems: await validate(request.clone()),
      });
  });
  server = await startTestServer({ CALCOM_API_KEY: "cal_test_123", CALCOM_WEBHOOK_SECRET: SECRET });
  token = await server.adminToken();
});
beforeEach(() => msw.resetHandlers());
afterAll(async () => {
  await server.close();
  msw.close();
});

const slotsHandler = (day: string) =>
  http.get(`${CALCOM_URL}/slots`, () =>
    HttpResponse.json({
      status: "success",
      data: {
        [day]: [{ start: `${day}T10:00:00.000+01:00` }, { start: `${day}T10:30:00.000+01:00` }],
      },
    }),
  );

describe("Cal.com API v2 client", () => {
  it("sends valid requests (OpenAPI subset + cal-api-version) and maps slots", async () => {
    const day = nextBookableWeekday();
    msw.use(slotsHandler(day));
    const res = await server.fetch("/api/calcom/available-slots", {
      method: "POST",
      json: { startDate: day, day, eventTypeKey: "demo" },
    });
    const body = await res.json();
    expect(body.slots.map((s: { formatted: string }) => s.formatted)).toEqual(["10:00", "10:30"]);
    const slotsCall = sent.find((s) => s.url.includes("/v2/slots"));
    expect(slotsCall?.problems).toEqual([]);
    const url = new URL(slotsCall!.url);
    expect(url.searchParams.get("eventTypeId")).toBe("101");
    expect(url.searchParams.get("timeZone")).toBe("Europe/Berlin");
    expect(sent.find((s) => s.url.includes("/v2/event-types"))?.problems).toEqual([]);
  });

  it("retries a 429 and then succeeds", async () => {
    const day = nextBookableWeekday();
    let calls = 0;
    msw.use(
      http.get(`${CALCOM_URL}/slots`, () => {
        calls++;
        if (calls === 1)
          return HttpResponse.json(
            { status: "error", error: { code: "TooManyRequests" } },
            { status: 429, headers: { "retry-after": "0" } },
          );
        return HttpResponse.json({
          status: "success",
          data: { [day]: [{ start: `${day}T09:00:00.000+01:00` }] },
        });
      }),
    );
    const body = await (
      await server.fetch("/api/calcom/available-slots", {
        method: "POST",
        json: { startDate: day, day },
      })
    ).json();
    expect(calls).toBe(2);
    expect(body.slots).toHaveLength(1);
  });

  it("books with a valid body (metadata.requestId, attendee) and maps slot-taken to German", async () => {
    const r = db()
      .insert(requests)
      .values({
        name: "Cara Cal",
        email: "cara@example.com",
        phone: "+49 40 1234",
        companyDescription: "Agentur mit zwanzig Leuten in Hamburg",
      })
      .returning()
      .get();
    const day = nextBookableWeekday();
    const start = new Date(`${day}T09:00:00.000Z`).toISOString();
    let body: Record<string, unknown> = {};
    msw.use(
      http.post(`${CALCOM_URL}/bookings`, async ({ request }) => {
        body = (await request.json()) as Record<string, unknown>;
        return HttpResponse.json(
          {
            status: "success",
            data: {
              id: 1,
              uid: "uid_abc",
              start,
              end: new Date(Date.parse(start) + 30 * 60_000).toISOString(),
              status: "accepted",
              location: "https://cal.com/video/abc",
            },
          },
          { status: 201 },
        );
      }),
    );
    const ok = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId: r.id, startTime: start, timeZone: "Europe/Berlin", eventTypeKey: "demo" },
    });
    expect(ok.status).toBe(201);
    expect(body).toMatchObject({
      eventTypeId: 101,
      metadata: { requestId: String(r.id) },
      attendee: { name: "Cara Cal", email: "cara@example.com", timeZone: "Europe/Berlin" },
    });
    expect(
      sent
        .filter((s) => s.method === "POST" && s.url.endsWith("/v2/bookings"))
        .flatMap((s) => s.problems),
    ).toEqual([]);

    msw.use(
      http.post(`${CALCOM_URL}/bookings`, () =>
        HttpResponse.json(
          {
            status: "error",
            error: {
              code: "BadRequestException",
              message: "User either already has booking at this time or is not available",
            },
          },
          { status: 400 },
        ),
      ),
    );
    // Another request (request r has its one active appointment now, ADR 081).
    const other = db()
      .insert(requests)
      .values({
        name: "Otto Other",
        email: "otto@example.com",
        phone: "+49 40 5678",
        companyDescription: "Agentur mit zwanzig Leuten in Hamburg",
      })
      .returning()
      .get();
    const taken = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId: other.id, startTime: start },
    });
    expect(taken.status).toBe(409);
    expect((await taken.json()).error).toContain("gerade vergeben");
  });

  it("refreshes an appointment from GET /v2/bookings/{uid}", async () => {
    const row = db()
      .select()
      .from(appointments)
      .all()
      .find((a) => a.externalUid === "uid_abc")!;
    msw.use(
      http.get(`${CALCOM_URL}/bookings/uid_abc`, () =>
        HttpResponse.json({
          status: "success",
          data: {
            uid: "uid_abc",
            start: row.startTime.toISOString(),
            end: new Date(row.startTime.getTime() + 1800_000).toISOString(),
            status: "cancelled",
          },
        }),
      ),
    );
    const res = await (
      await server.fetch(`/api/admin/appointments/${row.id}/refresh`, { method: "POST", token })
    ).json();
    expect(res.appointment.status).toBe("CANCELLED");
    expect(sent.find((s) => s.url.includes("/v2/bookings/uid_abc"))?.problems).toEqual([]);
  });
});

describe("a quarantined request's booking (spam, ADR 252)", () => {
  it("is held here without a call to Cal.com and forwarded once an admin releases the request", async () => {
    const r = db()
      .insert(requests)
      .values({
        name: "Quentin Quarantäne",
        email: "quentin@example.com",
        phone: "+49 40 5678",
        companyDescription: "Agentur mit zehn Leuten in Bremen",
        quarantinedAt: new Date(),
      })
      .returning()
      .get();
    const start = new Date(`${nextBookableWeekday()}T10:00:00.000Z`).toISOString();
    let bookings = 0;
    msw.use(
      http.post(`${CALCOM_URL}/bookings`, () => {
        bookings++;
        return HttpResponse.json(
          {
            status: "success",
            data: {
              id: 2,
              uid: "uid_held_forwarded",
              start,
              end: new Date(Date.parse(start) + 30 * 60_000).toISOString(),
              status: "accepted",
              location: null,
            },
          },
          { status: 201 },
        );
      }),
    );
    const held = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId: r.id, startTime: start, timeZone: "Europe/Berlin", eventTypeKey: "demo" },
    });
    expect(held.status).toBe(201);
    expect(bookings).toBe(0);
    const row = () =>
      db().select().from(appointments).where(eq(appointments.requestId, r.id)).get();
    expect(row()).toMatchObject({ provider: "calcom", status: "HELD" });

    const released = await server.fetch(`/api/requests/${r.id}`, {
      method: "PATCH",
      token,
      json: { quarantined: false },
    });
    expect(released.status).toBe(200);
    expect(bookings).toBe(1);
    expect(row()).toMatchObject({ externalUid: "uid_held_forwarded", status: "ACCEPTED" });
  });

  // A held booking's uid ("held-…") was made up here: cancelling must not send it to Cal.com.
  it("a held booking is cancelled locally, without a call to Cal.com", async () => {
    const calls: string[] = [];
    msw.use(
      http.post(`${CALCOM_URL}/bookings/:uid/cancel`, ({ params }) => {
        calls.push(String(params.uid));
        return HttpResponse.json(
          { status: "error", error: { message: "Booking not found" } },
          { status: 404 },
        );
      }),
    );
    const request = db()
      .insert(requests)
      .values({
        name: "Bot",
        email: "bot@example.com",
        emailKey: "bot@example.com",
        phone: "+49 30 1234 5678",
        companyDescription: "Firma",
        description: "Eine App.",
        visitorSecretHash: "a".repeat(64),
        quarantinedAt: new Date(),
      })
      .returning()
      .get();
    const held = db()
      .insert(appointments)
      .values({
        requestId: request.id,
        provider: "calcom",
        externalUid: "held-00000000-0000-4000-8000-000000000000",
        eventTypeKey: "demo",
        eventTypeName: "Demo",
        startTime: new Date(Date.now() + 5 * 86_400_000),
        status: "HELD",
      })
      .returning()
      .get();
    const res = await server.fetch(`/api/admin/appointments/${held.id}/cancel`, {
      method: "POST",
      token,
    });
    expect(calls).toEqual([]);
    expect(res.status, await res.text()).toBe(200);
  });

  it("whose slot Cal.com gave away meanwhile ends as 'Termin nicht mehr frei' at the release (ADR 355)", async () => {
    const r = db()
      .insert(requests)
      .values({
        name: "Greta Gehalten",
        email: "greta@example.com",
        phone: "+49 40 5679",
        companyDescription: "Tischlerei mit acht Leuten in Kiel",
        quarantinedAt: new Date(),
      })
      .returning()
      .get();
    const start = new Date(`${nextBookableWeekday()}T11:00:00.000Z`).toISOString();
    let bookings = 0;
    msw.use(
      http.post(`${CALCOM_URL}/bookings`, () => {
        bookings++;
        return HttpResponse.json(
          { status: "error", error: { message: "User either already has booking at this time" } },
          { status: 400 },
        );
      }),
    );
    const held = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId: r.id, startTime: start, timeZone: "Europe/Berlin", eventTypeKey: "demo" },
    });
    expect(held.status).toBe(201);
    // Booked as far as the booker can tell; held here, nothing sent to Cal.com.
    expect(((await held.json()) as { appointment: { status: string } }).appointment.status).toBe(
      "ACCEPTED",
    );
    expect(bookings).toBe(0);
    const row = () =>
      db().select().from(appointments).where(eq(appointments.requestId, r.id)).get();
    expect(row()).toMatchObject({ status: "HELD", heldBooking: "waits" });

    const released = await server.fetch(`/api/requests/${r.id}`, {
      method: "PATCH",
      token,
      json: { quarantined: false },
    });
    expect(released.status).toBe(200);
    expect(bookings).toBe(1);
    expect(row()).toMatchObject({ status: "CANCELLED", heldBooking: "gone" });
  });
});

describe("Cal.com webhook", () => {
  const payload = JSON.stringify({
    triggerEvent: "BOOKING_CREATED",
    createdAt: new Date().toISOString(),
    payload: {
      uid: "uid_webhook",
      title: "Demo-Termin",
      type: "demo",
      startTime: "2030-01-07T09:00:00.000Z",
      endTime: "2030-01-07T09:30:00.000Z",
      status: "ACCEPTED",
      metadata: {},
    },
  });
  const sign = (raw: string, secret = SECRET) =>
    createHmac("sha256", secret).update(raw).digest("hex");

  it("applies a signed event to the cache", async () => {
    const res = await server.fetch("/api/calcom/webhook", {
      method: "POST",
      body: payload,
      headers: { "content-type": "application/json", "x-cal-signature-256": sign(payload) },
    });
    expect(res.status).toBe(200);
    expect(
      db()
        .select()
        .from(appointments)
        .all()
        .some((a) => a.externalUid === "uid_webhook"),
    ).toBe(true);
    const cancel = JSON.stringify({
      triggerEvent: "BOOKING_CANCELLED",
      payload: { uid: "uid_webhook", status: "CANCELLED" },
    });
    await server.fetch("/api/calcom/webhook", {
      method: "POST",
      body: cancel,
      headers: { "content-type": "application/json", "x-cal-signature-256": sign(cancel) },
    });
    expect(
      db()
        .select()
        .from(appointments)
        .all()
        .find((a) => a.externalUid === "uid_webhook")?.status,
    ).toBe("CANCELLED");
  });

  it("stores no attendee data of a webhook payload in the appointments table", async () => {
    const body = JSON.stringify({
      triggerEvent: "BOOKING_CREATED",
      payload: {
        uid: "uid_private",
        title: "Demo-Termin between Olga Organisatorin and Paula Privat",
        eventTitle: "Demo-Termin",
        type: "demo",
        startTime: "2030-01-08T09:00:00.000Z",
        endTime: "2030-01-08T09:30:00.000Z",
        status: "ACCEPTED",
        attendees: [{ name: "Paula Privat", email: "paula.privat@example.com", timeZone: "UTC" }],
        organizer: { name: "Olga Organisatorin", email: "olga@example.com" },
        responses: { name: "Paula Privat", email: "paula.privat@example.com", notes: "Geheim" },
        description: "Paula Privat möchte reden",
        metadata: { requestId: "999999" },
      },
    });
    const res = await server.fetch("/api/calcom/webhook", {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-cal-signature-256": sign(body) },
    });
    expect(res.status).toBe(200);
    const rows = db().$client.prepare("SELECT * FROM appointments").all() as {
      external_uid: string;
    }[];
    const stored = rows.find((r) => r.external_uid === "uid_private");
    expect(stored).toMatchObject({ status: "ACCEPTED", event_type_name: "Demo-Termin" });
    const table = JSON.stringify(rows);
    for (const secret of [
      "Paula",
      "paula.privat@example.com",
      "Olga",
      "olga@example.com",
      "Geheim",
    ]) {
      expect(table).not.toContain(secret);
    }
  });

  it("refuses a badly signed event with 401", async () => {
    const res = await server.fetch("/api/calcom/webhook", {
      method: "POST",
      body: payload,
      headers: {
        "content-type": "application/json",
        "x-cal-signature-256": sign(payload, "wrong"),
      },
    });
    expect(res.status).toBe(401);
    const missing = await server.fetch("/api/calcom/webhook", {
      method: "POST",
      body: payload,
      headers: { "content-type": "application/json" },
    });
    expect(missing.status).toBe(401);
  });
});
