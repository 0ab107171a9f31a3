import { describe, expect, it } from "vitest";
import { appointments, requestStatusHistory, requests } from "~db/schema";
import { db } from "../platform/db.server";
import { conversionStats, weekBounds } from "./conversion.server";

// Wednesday 2026-11-18 12:00 Berlin; its week starts Monday 2026-11-16 00:00 Berlin (23:00 UTC before).
const NOW = new Date("2026-11-18T11:00:00Z");
const HOUR = 3600_000;
const DAY = 24 * HOUR;
let uid = 0;

function seed(createdAt: Date, extra: Partial<typeof requests.$inferInsert> = {}) {
  return db()
    .insert(requests)
    .values({
      name: "Anna",
      email: `anna-${++uid}@example.com`,
      phone: "+49 30 1234567",
      companyDescription: "Bäckerei in Köln",
      createdAt,
      ...extra,
    })
    .returning({ id: requests.id })
    .get().id;
}
function change(requestId: number, at: Date, to: "In Progress" | "Done" = "In Progress") {
  db()
    .insert(requestStatusHistory)
    .values({ requestId, fromStatus: "New", toStatus: to, changedAt: at })
    .run();
}
function book(requestId: number, status = "ACCEPTED") {
  db()
    .insert(appointments)
    .values({
      requestId,
      provider: "calcom",
      externalUid: `u-${++uid}`,
      eventTypeKey: "demo",
      eventTypeName: "Demo",
      startTime: new Date(NOW.getTime() + uid * HOUR),
      status,
    })
    .run();
}

describe("conversionStats (seeded, injected clock)", () => {
  it("week bounds: 12 Mondays 00:00 Europe/Berlin, the last one this week's", () => {
    const bounds = weekBounds(NOW);
    expect(bounds).toHaveLength(13);
    expect(bounds[11].toISOString()).toBe("2026-11-15T23:00:00.000Z");
    expect(bounds[12].toISOString()).toBe("2026-11-22T23:00:00.000Z");
    // Across the end of summer time (25 Oct 2026) Monday 00:00 Berlin was 22:00 UTC.
    expect(bounds[4].toISOString()).toBe("2026-09-27T22:00:00.000Z");
  });

  it("counts per week, demo share, sources, affiliate codes and the median to the first change", () => {
    const thisWeek = new Date("2026-11-17T09:00:00Z");
    const lastWeek = new Date("2026-11-10T09:00:00Z");
    const a = seed(thisWeek, { attributionSource: "newsletter" });
    const b = seed(thisWeek, { attributionSource: "newsletter", affiliateCode: "PARTNER10" });
    const c = seed(lastWeek, { attributionSource: "linkedin" });
    const d = seed(lastWeek);
    seed(new Date("2026-08-01T09:00:00Z"), { attributionSource: "alt" }); // before the 12 weeks
    book(a);
    book(c);
    book(d, "CANCELLED");
    change(a, new Date(thisWeek.getTime() + 2 * HOUR));
    change(a, new Date(thisWeek.getTime() + 30 * HOUR), "Done"); // not the first change
    change(b, new Date(thisWeek.getTime() + 4 * HOUR));
    change(c, new Date(lastWeek.getTime() + 3 * DAY));

    const stats = conversionStats(NOW);
    expect(stats.weeks).toHaveLength(12);
    expect(stats.weeks.map((w) => w.count).slice(-3)).toEqual([0, 2, 2]);
    expect(stats.weeks.reduce((sum, w) => sum + w.count, 0)).toBe(4);
    expect(stats.demo).toEqual({ requests: 4, booked: 2, share: 0.5 });
    expect(stats.bySource).toEqual([
      { label: "newsletter", count: 2 },
      { label: null, count: 1 },
      { label: "linkedin", count: 1 },
    ]);
    expect(stats.byAffiliate).toEqual([
      { label: null, count: 3 },
      { label: "PARTNER10", count: 1 },
    ]);
    // First changes: 2 h, 4 h, 72 h → median 4 h.
    expect(stats.firstChange).toEqual({ medianMs: 4 * HOUR, changed: 3 });

    change(d, new Date(lastWeek.getTime() + 6 * HOUR));
    // 2, 4, 6, 72 h → the mean of the middle two.
    expect(conversionStats(NOW).firstChange).toEqual({ medianMs: 5 * HOUR, changed: 4 });
  });

  it("more than 8 sources: the smallest are summed up", () => {
    const at = new Date("2026-11-02T09:00:00Z");
    for (let i = 0; i < 10; i++) seed(at, { attributionSource: `quelle-${i}` });
    const { bySource } = conversionStats(NOW);
    expect(bySource).toHaveLength(8);
    expect(bySource.at(-1)?.label).toBe("…");
    expect(bySource.reduce((sum, s) => sum + s.count, 0)).toBe(14);
  });

  it("a lead without utm_source counts under its referrer's host, not as direct (index only)", () => {
    // Its own 12-week window, apart from the leads seeded above.
    const later = new Date("2027-06-16T10:00:00Z");
    const at = new Date("2027-06-07T09:00:00Z");
    seed(at, { attributionReferrer: "https://www.google.com/" });
    seed(at, { attributionReferrer: "https://www.google.com" });
    seed(at, { attributionSource: "newsletter", attributionReferrer: "https://www.google.com/" });
    seed(at, { attributionReferrer: "https://news.ycombinator.com/item" });
    seed(at);
    const { bySource } = conversionStats(later);
    expect(bySource).toEqual([
      { label: "www.google.com", count: 2 },
      { label: null, count: 1 },
      { label: "news.ycombinator.com", count: 1 },
      { label: "newsletter", count: 1 },
    ]);
    // The grouping reads the expression index alone (no table rows, no temporary b-tree).
    const plan = db()
      .$client.prepare(
        `EXPLAIN QUERY PLAN SELECT count(*) FROM requests INDEXED BY requests_channel_created_idx
         WHERE created_at >= 0 GROUP BY coalesce("attribution_source", CASE WHEN instr("attribution_referrer", '://') > 0 THEN CASE WHEN instr(substr("attribution_referrer", instr("attribution_referrer", '://') + 3), '/') > 0 THEN substr(substr("attribution_referrer", instr("attribution_referrer", '://') + 3), 1, instr(substr("attribution_referrer", instr("attribution_referrer", '://') + 3), '/') - 1) ELSE substr("attribution_referrer", instr("attribution_referrer", '://') + 3) END END)`,
      )
      .all()
      .map((row) => (row as { detail: string }).detail)
      .join("\n");
    expect(plan).toContain("USING COVERING INDEX requests_channel_created_idx");
    expect(plan).not.toContain("TEMP B-TREE");
  });
});
