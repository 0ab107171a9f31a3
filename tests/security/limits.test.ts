import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstBookableDay } from "~/lib/booking-calendar";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { multipart, validFields } from "../integration/landing-fixtures";
import { startTestServer, type TestServer } from "../integration/server";
import { serverReceived } from "./server-received";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

/**
 * POSTs the same multipart body n times over separate connections: the first half of every body,
 * then — once the server (in this process) has received all n requests, so each handler runs while
 * its body is still incomplete — the second halves.
 */
async function overlappingPosts(path: string, n: number, form: FormData): Promise<number[]> {
  const encoded = new Response(form);
  const contentType = encoded.headers.get("content-type") ?? "";
  const body = Buffer.from(await encoded.arrayBuffer());
  const half = Math.floor(body.length / 2);
  const { hostname, port } = new URL(server.url);
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const serverHasAll = serverReceived(
    n,
    (request) => request.method === "POST" && request.url === path,
  );
  const answers = Array.from(
    { length: n },
    () =>
      new Promise<number>((resolve, reject) => {
        const req = http.request({
          hostname,
          port,
          path,
          method: "POST",
          agent: false,
          headers: { "content-type": contentType, "content-length": body.length },
        });
        let answered = false;
        req.on("response", (res) => {
          answered = true;
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        // Writing after an early answer (429 before the body was read) may fail: that is fine.
        req.on("error", (error) => (answered ? undefined : reject(error)));
        req.write(body.subarray(0, half));
        void released.then(() => {
          if (!req.destroyed) req.end(body.subarray(half));
        });
      }),
  );
  await serverHasAll.all;
  release();
  return Promise.all(answers);
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

function nextWeekday(): string {
  let day = firstBookableDay(1);
  while ([0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay())) {
    day = new Date(new Date(`${day}T12:00:00Z`).getTime() + 86400_000).toISOString().slice(0, 10);
  }
  return day;
}

describe("atomic limits under parallel attempts (ADR 081)", () => {
  // First: the admin token needs a login before the wrong ones use up the address's attempts.
  it("10 parallel bookings for one request: exactly one, the others 409 with a German message", async () => {
    const token = await server.adminToken();
    const r = db()
      .insert(requests)
      .values({
        name: "Paula Parallel",
        email: "paula@example.com",
        phone: "+49 30 999",
        companyDescription: "Eine Firma, die gern mehrfach bucht",
      })
      .returning()
      .get();
    const day = nextWeekday();
    const slots = (
      await (
        await server.fetch("/api/calcom/available-slots", {
          method: "POST",
          json: { startDate: day, day },
        })
      ).json()
    ).slots as { time: string }[];
    expect(slots.length).toBeGreaterThanOrEqual(10);
    const answers = await Promise.all(
      slots.slice(0, 10).map(async (slot) => {
        const res = await server.fetch("/api/calcom/book-appointment", {
          method: "POST",
          token,
          json: { requestId: r.id, startTime: slot.time, timeZone: "Europe/Berlin" },
        });
        return { status: res.status, body: await res.json() };
      }),
    );
    const statuses = answers.map((a) => a.status);
    expect(count(statuses, 201)).toBe(1);
    expect(count(statuses, 409)).toBe(9);
    expect(answers.find((a) => a.status === 409)?.body.error).toMatch(/bereits ein Termin/);
  });

  it("30 parallel wrong logins: exactly 5 × 401, the rest 429", async () => {
    const statuses = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const res = await server.fetch("/api/admin/auth/login", {
          method: "POST",
          json: { username: "admin", password: "ganz-falsch" },
        });
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(count(statuses, 401)).toBe(5);
    expect(count(statuses, 429)).toBe(25);
  });

  it("25 overlapping submissions from one address: exactly the limit (10) accepted", async () => {
    // Each body goes out in two halves; the second halves leave only once all 25 requests have
    // started, so the server holds 25 submissions at once (small bodies sent whole would just
    // finish one after another, and even a check-then-count limiter would pass).
    const statuses = await overlappingPosts("/api/requests", 25, multipart(validFields()));
    expect(count(statuses, 201)).toBe(10);
    expect(count(statuses, 429)).toBe(15);
  });

  it("the limits survive a restart (counters in SQLite)", async () => {
    await server.close();
    server = await startTestServer();
    const login = await server.fetch("/api/admin/auth/login", {
      method: "POST",
      json: { username: "admin", password: "ganz-falsch" },
    });
    expect(login.status).toBe(429);
    const submission = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields()),
    });
    expect(submission.status).toBe(429);
  });
});
