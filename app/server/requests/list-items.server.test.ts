import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { summaryPreview } from "~/lib/format";
import { parseRequestListQuery } from "~/lib/request-list";
import { admins, attachments, requestAssignees, requests } from "~db/schema";
import { db } from "../db.server";
import { listRequestItems, loadRequestListItems } from "./list-items.server";
import { listAttributionSources, listRequests } from "./queries.server";

// The admin list's slim rows (ADR 190) must say what the full JSON says about the same page.
const LONG = `Eine sehr lange Beschreibung ${"mit vielen Wörtern ".repeat(60)}am Ende.`;
let adminId = 0;

beforeAll(() => {
  adminId = db()
    .insert(admins)
    .values({ username: "liste", email: "liste@example.com", passwordHash: "x" })
    .returning({ id: admins.id })
    .get().id;
  for (let i = 0; i < 30; i++) {
    const id = db()
      .insert(requests)
      .values({
        name: `Kunde ${i}`,
        email: `kunde${i}@example.com`,
        phone: `+49 30 ${2000 + i}`,
        companyDescription: "Ein Betrieb",
        description: i % 2 ? LONG : `Kurz ${i}`,
        summary: i % 3 === 0 ? `  Zusammenfassung ${i}` : null,
        audioKey: i % 4 === 0 ? `audio-${i}.webm` : null,
        attributionSource: i % 5 === 0 ? "newsletter" : i % 2 ? "google" : null,
        createdAt: new Date(Date.UTC(2026, 10, 1) + i * 60_000),
      })
      .returning({ id: requests.id })
      .get().id;
    for (let f = 0; f < i % 3; f++)
      db()
        .insert(attachments)
        .values({
          requestId: id,
          filename: `datei-${id}-${f}`,
          originalName: "a.pdf",
          mimeType: "application/pdf",
          size: 10,
        })
        .run();
    if (i % 4 === 1) db().insert(requestAssignees).values({ requestId: id, adminId }).run();
  }
});

describe("loadRequestListItems", () => {
  it.each(["", "sort=oldest&page=2", "q=kunde&sort=id-asc"])(
    "%s: the same rows as the full JSON, with counts instead of lists",
    (search) => {
      const query = parseRequestListQuery(new URLSearchParams(search));
      const full = listRequests(query, adminId);
      const slim = listRequestItems(query, adminId);
      expect(slim.total).toBe(full.total);
      expect(slim.page).toBe(full.page);
      expect(slim.items.length).toBeGreaterThan(0);
      expect(slim.items).toEqual(
        full.items.map((r) => ({
          id: r.id,
          name: r.name,
          preview: summaryPreview(r),
          status: r.status,
          createdAt: r.createdAt,
          archived: r.archived,
          files: r.attachments.length,
          hasAudio: r.audioPath !== null,
          assigned_to: r.assigned_to,
        })),
      );
    },
  );

  it("keeps the order of the ids and skips missing ones", () => {
    expect(loadRequestListItems([3, 999_999, 1]).map((r) => r.id)).toEqual([3, 1]);
    expect(loadRequestListItems([])).toEqual([]);
  });
});

describe("listAttributionSources", () => {
  it("lists the sources by frequency and follows every change to the requests", () => {
    expect(listAttributionSources()).toEqual(["google", "newsletter"]);
    const id = db()
      .insert(requests)
      .values({
        name: "Neu",
        email: "neu@example.com",
        phone: "+49 30 1",
        companyDescription: "Ein Betrieb",
        description: "Neu",
        attributionSource: "messe",
      })
      .returning({ id: requests.id })
      .get().id;
    expect(listAttributionSources()).toEqual(["google", "newsletter", "messe"]);
    expect(listAttributionSources(1)).toEqual(["google"]);
    db().update(requests).set({ attributionSource: "google" }).where(eq(requests.id, id)).run();
    expect(listAttributionSources()).toEqual(["google", "newsletter"]);
    db().delete(requests).where(eq(requests.id, id)).run();
    expect(listAttributionSources()).toEqual(["google", "newsletter"]);
  });
});
