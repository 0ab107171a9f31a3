import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { summaryPreview } from "~/lib/format";
import { parseRequestListQuery } from "~/lib/request-list";
import { admins, affiliateCodes, attachments, requestAssignees, requests } from "~db/schema";
import { db } from "../platform/db.server";
import { listRequestItems, loadRequestListItems, rowsQuery } from "./list-items.server";
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
  db()
    .insert(affiliateCodes)
    .values({
      code: "Partner1",
      name: "Agentur Nord",
      email: "nord@example.com",
      discountValue: 15,
    })
    .run();
  for (let i = 0; i < 30; i++) {
    const id = db()
      .insert(requests)
      .values({
        name: `Kunde ${i}`,
        email: `kunde${i}@example.com`,
        phone: `+49 30 ${2000 + i}`,
        companyDescription: i % 7 ? "Ein Betrieb" : `Bäckerei ${i} GmbH\nSeit 1920 am Markt`,
        description: i % 2 ? LONG : `Kurz ${i}`,
        // A code with its partner, and one whose code was deleted since.
        affiliateCode: i % 6 === 0 ? "PARTNER1" : i % 6 === 3 ? "GELOESCHT" : null,
        attributionReferrer: i % 4 === 2 ? "https://www.google.com/search?q=x" : null,
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
          company: r.companyDescription.split("\n")[0],
          source: r.attribution.source ?? (r.attribution.referrer ? "www.google.com" : null),
          code:
            r.affiliateCode === "PARTNER1"
              ? { code: "PARTNER1", partner: "Agentur Nord", discount: 15 }
              : r.affiliateCode
                ? { code: r.affiliateCode, partner: null, discount: null }
                : null,
          stage: r.stage.id,
          promises: r.promises,
        })),
      );
    },
  );

  it("reads the rows by id and each code's partner through the code index (no scan)", () => {
    const { sql, params } = rowsQuery([1, 2]).toSQL();
    const plan = db()
      .$client.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...params)
      .map((row) => (row as { detail: string }).detail);
    expect(plan).toContainEqual(expect.stringMatching(/SEARCH requests USING INTEGER PRIMARY KEY/));
    expect(plan).toContainEqual(
      expect.stringMatching(/SEARCH affiliate_codes USING INDEX affiliate_codes_code_unique/),
    );
    expect(plan.filter((d) => d.startsWith("SCAN ") && !d.includes("json_each"))).toEqual([]);
  });

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
