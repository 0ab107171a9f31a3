import { randomBytes, randomInt } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstBookableDay } from "~/lib/booking-calendar";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { closeDb, db } from "~/server/platform/db.server";
import { appointments, idempotencyKeys, mailOutbox, requests } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { multipart, pdfBytes, webmBytes } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;

// Lower case: the search index stores terms folded, so the marker must match byte for byte there too.
const marker = `zqx${randomBytes(8).toString("hex")}`;
const phoneDigits = `49${randomInt(100_000_000, 999_999_999)}`;
const phone = `+${phoneDigits.slice(0, 2)} ${phoneDigits.slice(2, 5)} ${phoneDigits.slice(5)}`;
const dataDir = path.dirname(process.env.DATABASE_PATH as string);

beforeAll(async () => {
  server = await startTestServer();
  token = await server.adminToken();
});
afterAll(() => server.close());

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

/** Every file (database, WAL, uploads, secrets) that contains one of the needles. */
function filesContaining(...needles: string[]): string[] {
  const dirs = [dataDir, process.env.UPLOADS_DIR as string];
  const files = [...new Set(dirs.flatMap((d) => filesUnder(d)))];
  return files.filter((file) => {
    const bytes = readFileSync(file);
    return needles.some((n) => bytes.includes(Buffer.from(n)));
  });
}

function nextWeekday(): string {
  let day = firstBookableDay(1);
  while ([0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay())) {
    day = new Date(new Date(`${day}T12:00:00Z`).getTime() + 86400_000).toISOString().slice(0, 10);
  }
  return day;
}

describe("erasure", () => {
  it("leaves the marker of a deleted request in no byte of the data directory or the uploads", async () => {
    saveConfiguration({
      emailNotifications: {
        enabled: true,
        bookingNotice: true,
        adminEmails: [],
        externalEmails: ["team@example.com"],
      },
    });
    const pdf = pdfBytes(400);
    pdf.write(marker, 100, "latin1");
    const audio = Buffer.concat([webmBytes(), Buffer.from(marker)]);
    const created = await server.fetch("/api/requests", {
      method: "POST",
      headers: { "Idempotency-Key": `key-${marker}` },
      body: multipart(
        {
          name: `Anna ${marker}`,
          email: `${marker}@example.com`,
          phone,
          companyDescription: `Bäckerei ${marker} mit fünf Filialen in Köln.`,
          description: `Eine App für ${marker} Vorbestellungen.`,
          // The normal flow (mails that must be erased too), not the spam quarantine.
          altcha: await solvedAltcha(server.url),
        },
        [
          { name: `${marker}.pdf`, bytes: pdf },
          { field: "audio", name: `${marker}.webm`, bytes: audio, type: "audio/webm" },
        ],
      ),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const prepared = await server.fetch(`/api/admin/requests/${id}`, {
      method: "PUT",
      token,
      json: { preparationData: { notizen: `Notiz ${marker}` } },
    });
    expect(prepared.status).toBe(200);
    const slots = (
      await (
        await server.fetch("/api/calcom/available-slots", {
          method: "POST",
          json: { startDate: nextWeekday(), day: nextWeekday() },
        })
      ).json()
    ).slots as { time: string }[];
    const booked = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId: id, startTime: slots[0].time, timeZone: "Europe/Berlin" },
    });
    expect(booked.status).toBe(201);
    // The new-request notification and the booking mails carry the person's data.
    expect(
      db().select().from(mailOutbox).where(eq(mailOutbox.requestId, id)).all().length,
    ).toBeGreaterThanOrEqual(2);
    db().$client.pragma("wal_checkpoint(TRUNCATE)");
    // The test can fail: before the deletion the marker is on disk (database and uploads).
    expect(filesContaining(marker).length).toBeGreaterThanOrEqual(2);

    const deleted = await server.fetch(`/api/requests/${id}`, { method: "DELETE", token });
    expect(deleted.status).toBe(200);

    expect(db().select().from(requests).all()).toEqual([]);
    expect(db().select().from(appointments).all()).toEqual([]);
    expect(db().select().from(mailOutbox).all()).toEqual([]);
    expect(db().select().from(idempotencyKeys).all()).toEqual([]);
    expect(
      db().$client.prepare("SELECT rowid FROM requests_fts WHERE requests_fts MATCH ?").all(marker),
    ).toEqual([]);

    // Restart: the server closes the database, a new one opens it again.
    await server.close();
    closeDb();
    server = await startTestServer();
    expect(filesContaining(marker, phoneDigits, phone)).toEqual([]);
  });
});
