import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/server/platform/db.server";
import { assignRequest, updateRequest } from "~/server/requests/manage.server";
import { requestStatusHistory, requests } from "~db/schema";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
let cookie: string;

function seedRequest() {
  return db()
    .insert(requests)
    .values({
      name: "Konrad Konflikt",
      email: "konrad@example.com",
      phone: "+49 30 1234 5678",
      companyDescription: "Tischlerei mit zwölf Angestellten in Leipzig",
      description: "Wir brauchen eine Auftragsverwaltung.",
    })
    .returning()
    .get();
}

beforeAll(async () => {
  server = await startTestServer();
  token = await server.adminToken();
  cookie = await server.adminCookie();
});
afterAll(() => server.close());

const put = (id: number, json: unknown) =>
  server.fetch(`/api/admin/requests/${id}`, { method: "PUT", token, json });

const stored = (id: number) =>
  db()
    .select()
    .from(requests)
    .all()
    .find((r) => r.id === id) as typeof requests.$inferSelect;

describe("saving preparation texts: a conflict only when the texts changed since loading", () => {
  it("API: a status change or an assignment since is no conflict for the texts", async () => {
    const r = seedRequest();
    const loaded = r.updatedAt.toISOString();
    expect((await put(r.id, { status: "In Progress" })).status).toBe(200);
    const assign = await server.fetch(`/api/admin/requests/${r.id}/assign`, {
      method: "POST",
      token,
      json: { action: "add", admin_id: 1 },
    });
    expect(assign.status).toBe(200);
    const texts = await put(r.id, {
      preparationData: { kernfunktionen: "Aufträge anlegen" },
      updatedAt: loaded,
    });
    expect(texts.status).toBe(200);
    expect(stored(r.id).preparationData).toMatchObject({ kernfunktionen: "Aufträge anlegen" });
    // The status itself did change since: a status change based on the old state still conflicts.
    expect((await put(r.id, { status: "Done", updatedAt: loaded })).status).toBe(409);
  });

  it("API: texts changed by someone else since loading → 409, nothing overwritten", async () => {
    const r = seedRequest();
    const loaded = r.updatedAt.toISOString();
    expect((await put(r.id, { preparationData: { zielgruppe: "Kollegin" } })).status).toBe(200);
    const mine = await put(r.id, { preparationData: { zielgruppe: "Ich" }, updatedAt: loaded });
    expect(mine.status).toBe(409);
    expect((await mine.json()).error).toContain("inzwischen");
    expect(stored(r.id).preparationData).toEqual({ zielgruppe: "Kollegin" });
    // Only the texts changed: a status change based on the same old state is fine.
    expect((await put(r.id, { status: "Done", updatedAt: loaded })).status).toBe(200);
  });

  const postForm = (id: number, fields: Record<string, string>) =>
    server.fetch(`/admin/requests?requestId=${id}`, {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({ intent: "preparation", id: String(id), ...fields }),
    });

  it("form (no JS): saves after an unrelated status change", async () => {
    const r = seedRequest();
    const loaded = r.updatedAt.toISOString();
    expect((await put(r.id, { status: "Done" })).status).toBe(200);
    const saved = await postForm(r.id, {
      updatedAt: loaded,
      "prep.kernfunktionen": "Kalender für Montagetermine",
    });
    expect(saved.status).toBe(302);
    expect(stored(r.id).preparationData).toMatchObject({
      kernfunktionen: "Kalender für Montagetermine",
    });
  });

  it("form (no JS): a real conflict answers 409 with the page showing the draft and the warning; saving again wins", async () => {
    const r = seedRequest();
    const loaded = r.updatedAt.toISOString();
    expect((await put(r.id, { preparationData: { kernfunktionen: "Fassung B" } })).status).toBe(
      200,
    );
    const conflict = await postForm(r.id, {
      updatedAt: loaded,
      "prep.kernfunktionen": "Mein Entwurf A",
    });
    expect(conflict.status).toBe(409);
    const html = await conflict.text();
    expect(html).toContain("Mein Entwurf A");
    expect(html).toContain("Die Vorbereitung wurde inzwischen von jemand anderem geändert.");
    expect(stored(r.id).preparationData).toEqual({ kernfunktionen: "Fassung B" });
    // The re-rendered form carries the stored time: the admin's second click saves the draft.
    const current = stored(r.id).updatedAt.toISOString();
    expect(html).toContain(`name="updatedAt" value="${current}"`);
    const again = await postForm(r.id, {
      updatedAt: current,
      "prep.kernfunktionen": "Mein Entwurf A",
    });
    expect(again.status).toBe(302);
    expect(stored(r.id).preparationData).toMatchObject({ kernfunktionen: "Mein Entwurf A" });
  });

  it("API: a row whose last status change is stamped after its updated_at (rows from before 0012) takes a status change with its own updatedAt", async () => {
    const r = seedRequest();
    expect((await put(r.id, { status: "In Progress" })).status).toBe(200);
    const row = stored(r.id);
    // Before this session the history's changed_at came from SQLite a few ms after updated_at.
    db()
      .update(requestStatusHistory)
      .set({ changedAt: new Date(row.updatedAt.getTime() + 2) })
      .where(eq(requestStatusHistory.requestId, r.id))
      .run();
    const res = await put(r.id, { status: "Done", updatedAt: row.updatedAt.toISOString() });
    expect(res.status).toBe(200);
    expect(stored(r.id).status).toBe("Done");
    // A basis older than the last status change is still a conflict.
    const stale = await put(r.id, { status: "New", updatedAt: row.updatedAt.toISOString() });
    expect(stale.status).toBe(409);
    expect(stored(r.id).status).toBe("Done");
  });

  it("a status change in the same millisecond as an assignment stays a conflict for an older basis", () => {
    const r = seedRequest();
    const loaded = stored(r.id).updatedAt;
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      // Every write below happens in the millisecond the row was loaded in.
      vi.setSystemTime(loaded);
      const b = updateRequest(r.id, { status: "In Progress", updatedAt: loaded.toISOString() });
      expect(b.ok).toBe(true);
      expect(assignRequest(r.id, "add", 1)).toMatchObject({ ok: true });
      // updated_at only moved forward, so A (who loaded before B's change) is told about it.
      expect(stored(r.id).updatedAt.getTime()).toBeGreaterThan(loaded.getTime() + 1);
      const a = updateRequest(r.id, { status: "Done", updatedAt: loaded.toISOString() });
      expect(a).toMatchObject({ ok: false, status: 409 });
      expect(stored(r.id).status).toBe("In Progress");
    } finally {
      vi.useRealTimers();
    }
  });
});
