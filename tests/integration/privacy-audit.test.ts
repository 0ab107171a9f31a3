import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { auditLog, requestStatusHistory } from "~db/schema";
import { insertAdmin } from "./auth-helpers";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
let admin: { id: number; username: string; password: string };
beforeAll(async () => {
  server = await startTestServer();
  admin = await insertAdmin("prue-fer", { passwordChanged: true });
  token = await server.adminToken(admin.username, admin.password);
});
afterAll(() => server.close());

const entries = () =>
  db()
    .select()
    .from(auditLog)
    .all()
    .map((e) => ({ actor: e.actorName, action: e.action, target: e.target, details: e.details }));

describe("audit log", () => {
  it("records logins, status changes (with history), assignments, exports and deletions by whom", async () => {
    const created = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ name: "Ina Protokoll" })),
    });
    const { id } = (await created.json()) as { id: number };
    const target = `Anfrage #${String(id).padStart(4, "0")}`;

    expect(
      (
        await server.fetch(`/api/admin/requests/${id}`, {
          method: "PUT",
          token,
          json: { status: "In Progress" },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await server.fetch(`/api/requests/${id}`, {
          method: "PATCH",
          token,
          json: { status: "Done" },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await server.fetch(`/api/admin/requests/${id}/assign`, {
          method: "POST",
          token,
          json: { action: "add", admin_id: admin.id },
        })
      ).status,
    ).toBe(200);
    await (await server.fetch(`/api/admin/requests/${id}/export`, { token })).arrayBuffer();
    await (await server.fetch("/api/admin/requests/export.csv?q=Ina", { token })).text();

    const history = db()
      .select()
      .from(requestStatusHistory)
      .where(eq(requestStatusHistory.requestId, id))
      .all();
    expect(history.map((h) => [h.fromStatus, h.toStatus, h.adminId])).toEqual([
      ["New", "In Progress", admin.id],
      ["In Progress", "Done", admin.id],
    ]);

    expect((await server.fetch(`/api/requests/${id}`, { method: "DELETE", token })).status).toBe(
      200,
    );
    // The history goes with the request (erasure).
    expect(
      db().select().from(requestStatusHistory).where(eq(requestStatusHistory.requestId, id)).all(),
    ).toEqual([]);

    const log = entries();
    const by = (action: string) => log.filter((e) => e.action === action);
    expect(by("login")).toContainEqual(expect.objectContaining({ actor: admin.username }));
    expect(by("status").map((e) => [e.actor, e.target, JSON.parse(e.details ?? "{}")])).toEqual([
      // A status moves the pipeline's phase with it (ADR 345): both in one entry.
      [
        admin.username,
        target,
        { from: "New", to: "In Progress", phase: { von: "Neu", nach: "Kontaktiert" } },
      ],
      [
        admin.username,
        target,
        { from: "In Progress", to: "Done", phase: { von: "Kontaktiert", nach: "Gewonnen" } },
      ],
    ]);
    expect(by("assign")).toEqual([expect.objectContaining({ actor: admin.username, target })]);
    expect(by("export-person")).toEqual([
      expect.objectContaining({ actor: admin.username, target }),
    ]);
    expect(by("export-csv")).toHaveLength(1);
    // The filters set, nothing else (no nulls for the ones left open).
    expect(JSON.parse(by("export-csv")[0].details ?? "{}")).toEqual({ tab: "active", suche: "ja" });
    expect(by("delete")).toEqual([expect.objectContaining({ actor: admin.username, target })]);
    // No personal data in the log: the search text and the person's name are not recorded.
    expect(JSON.stringify(log)).not.toContain("Ina");
  });

  it("/admin/audit lists entries with filters by actor, action and date", async () => {
    const login = await server.fetch("/admin/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: admin.username, password: admin.password }).toString(),
    });
    const cookie = login.headers.get("set-cookie")?.split(";")[0] as string;
    const page = async (search: string) =>
      (await (await server.fetch(`/admin/audit${search}`, { headers: { cookie } })).text()).match(
        /data-testid="audit-row"/g,
      )?.length ?? 0;
    const all = await page("");
    expect(all).toBeGreaterThanOrEqual(7);
    expect(await page("?action=delete")).toBe(1);
    expect(await page(`?actor=${admin.username}&action=status`)).toBe(2);
    expect(await page("?actor=niemand")).toBe(0);
    expect(await page("?from=2000-01-01&to=2000-01-02")).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(await page(`?from=${today}&to=${today}`)).toBe(all);
    expect((await server.fetch("/admin/audit")).status).toBe(302);
  });
});
