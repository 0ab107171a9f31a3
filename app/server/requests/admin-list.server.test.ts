import type Database from "better-sqlite3";
import { beforeAll, describe, expect, it } from "vitest";
import {
  admins,
  attachments,
  mailOutbox,
  requestAssignees,
  requestMessages,
  requests,
} from "~db/schema";
import { db } from "../platform/db.server";
import { ADMIN_LIST_BATCH, adminRequestsJsonParts } from "./admin-list.server";
import { asAdminJson } from "./quarantine.server";
import { listAllRequestIds } from "./queries.server";
import { loadRequestsJson } from "./serialize.server";

// The unpaginated API lists (GET /api/admin/requests, /archived, GET /api/requests) are built in
// batches (ADR 298): the bytes must be exactly those of the one-piece JSON they replaced.
const COUNT = 3 * ADMIN_LIST_BATCH;
let ids: number[] = [];

beforeAll(() => {
  const adminId = db()
    .insert(admins)
    .values({ username: "stapel", email: "stapel@example.com", passwordHash: "x" })
    .returning({ id: admins.id })
    .get().id;
  const mailId = db()
    .insert(mailOutbox)
    .values({ to: "kunde@example.com", subject: "Hallo", text: "t", html: "h" })
    .returning({ id: mailOutbox.id })
    .get().id;
  for (let i = 0; i < COUNT; i++) {
    const id = db()
      .insert(requests)
      .values({
        name: i % 9 ? `Kunde ${i}` : `Jörg „Müller“ – ${i} 🎉`,
        email: `kunde${i}@example.com`,
        phone: `+49 30 ${2000 + i}`,
        companyDescription: `Betrieb ${i}\n"zitiert" \\ Rückstrich`,
        description: i % 2 ? `Beschreibung ${i}` : "",
        summary: i % 3 === 0 ? `Zusammenfassung ${i}` : null,
        status: (["New", "In Progress", "Done"] as const)[i % 3],
        archived: i % 11 === 0,
        audioKey: i % 4 === 0 ? `audio-${i}.webm` : null,
        audioType: i % 4 === 0 ? "audio/webm" : null,
        voiceTranscript: i % 8 === 0 ? `Transkript ${i}` : null,
        voiceTranscriptStatus: i % 8 === 0 ? "done" : i % 4 === 0 && i % 3 ? "pending" : null,
        preparationData: i % 5 === 0 ? { ziel: `Ziel ${i}`, budget: "10 000 €" } : {},
        affiliateCode: i % 6 === 0 ? "PARTNER1" : null,
        attributionSource: i % 5 === 0 ? "newsletter" : null,
        attributionReferrer: i % 7 === 0 ? "https://www.google.com/search?q=x" : null,
        quarantinedAt: i % 13 === 0 ? new Date(Date.UTC(2026, 10, 2)) : null,
        // Equal times for neighbours: the order falls back to the id.
        createdAt: new Date(Date.UTC(2026, 10, 1) + Math.floor(i / 2) * 60_000),
      })
      .returning({ id: requests.id })
      .get().id;
    for (let f = 0; f < i % 3; f++)
      db()
        .insert(attachments)
        .values({
          requestId: id,
          filename: `datei-${id}-${f}`,
          originalName: `Angebot ${f}.pdf`,
          mimeType: "application/pdf",
          size: 10 + f,
        })
        .run();
    if (i % 4 === 1) db().insert(requestAssignees).values({ requestId: id, adminId }).run();
    if (i % 10 === 3)
      db()
        .insert(requestMessages)
        .values([
          { requestId: id, subject: "Frage", body: "Wann?", adminId, adminName: "stapel", mailId },
          { requestId: id, direction: "in", subject: "Re: Frage", body: "Morgen", adminName: "" },
        ])
        .run();
  }
  ids = listAllRequestIds({ archived: false });
});

/** What the lists answered before ADR 298: one JSON.stringify of every row at once. */
const onePiece = (list: number[]) => JSON.stringify(asAdminJson(loadRequestsJson(list)));
const batched = (list: number[], batch?: number) =>
  Buffer.concat(adminRequestsJsonParts(list, batch)).toString("utf8");

describe("adminRequestsJsonParts", () => {
  it("has rows of every kind to check (more than two batches)", () => {
    expect(ids.length).toBeGreaterThan(2 * ADMIN_LIST_BATCH);
    const json = JSON.parse(batched(ids));
    expect(json.some((r: { messages: unknown[] }) => r.messages.length === 2)).toBe(true);
    expect(json.some((r: { attachments: unknown[] }) => r.attachments.length === 2)).toBe(true);
    expect(json.some((r: { assigned_to: unknown[] }) => r.assigned_to.length === 1)).toBe(true);
    expect(
      json.some((r: { voiceTranscriptStatus: unknown }) => r.voiceTranscriptStatus === "off"),
    ).toBe(true);
  });

  it.each([1, 2, 7, ADMIN_LIST_BATCH, 1000])(
    "batch %i: the bytes of the one-piece JSON",
    (size) => {
      expect(batched(ids, size)).toBe(onePiece(ids));
    },
  );

  it("keeps the given order, skips missing ids and lists the quarantined and archived too", () => {
    const all = [...listAllRequestIds({ archived: true }), ...ids];
    const held = listAllRequestIds({ archived: false, quarantined: true });
    expect(held.length).toBeGreaterThan(0);
    const mixed = [999_999, ...held, ...all.slice(0, 40).reverse(), 999_998, ...all.slice(40)];
    expect(batched(mixed, 7)).toBe(onePiece(mixed));
    expect(JSON.parse(batched(held)).every((r: { quarantined: boolean }) => r.quarantined)).toBe(
      true,
    );
  });

  it("answers an empty list and batches of missing ids with []", () => {
    expect(batched([])).toBe("[]");
    expect(batched([999_999, 999_998], 1)).toBe("[]");
  });

  it("never reads more than one batch of request rows at once", () => {
    // Built in one piece, the 1,000 rows of the API list outlived the server's young generation
    // (ADR 297) and went through the major collector: at 1M requests half of the call's CPU.
    const client = db().$client;
    const prepare = client.prepare;
    let largest = 0;
    client.prepare = ((source: string) => {
      const statement = prepare.call(client, source) as Database.Statement;
      if (!/^select "id", "name"/i.test(source)) return statement;
      const proxy: Database.Statement = new Proxy(statement, {
        get(target, prop) {
          const value = Reflect.get(target, prop);
          if (typeof value !== "function") return value;
          return (...args: unknown[]) => {
            const result = value.apply(target, args);
            if (prop === "all") largest = Math.max(largest, (result as unknown[]).length);
            return result === target ? proxy : result;
          };
        },
      });
      return proxy;
    }) as typeof client.prepare;
    try {
      adminRequestsJsonParts(ids);
    } finally {
      client.prepare = prepare;
    }
    expect(largest).toBe(ADMIN_LIST_BATCH);
  });
});
