import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { insertAdmin } from "./auth-helpers";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer();
  const admin = await insertAdmin("lena-admin", { passwordChanged: true });
  const login = await server.fetch("/admin/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: admin.username, password: admin.password }).toString(),
  });
  cookie = login.headers.get("set-cookie")?.split(";")[0] as string;
});
afterAll(() => server.close());

describe("requests page: privacy actions (no JS)", () => {
  it("offers export and deletion; deleting asks first, then erases and returns to the list", async () => {
    const created = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ name: "Lena Löschen" })),
    });
    const { id } = (await created.json()) as { id: number };
    const page = await server.fetch(`/admin/requests?requestId=${id}`, { headers: { cookie } });
    const html = await page.text();
    expect(html).toContain(`href="/api/admin/requests/${id}/export"`);
    expect(html).toContain("Daten exportieren");
    expect(html).toContain('href="/api/admin/requests/export.csv"');

    const post = (fields: Record<string, string>) =>
      server.fetch(`/admin/requests?requestId=${id}`, {
        method: "POST",
        headers: { cookie },
        body: new URLSearchParams(fields),
      });
    const step = await post({ intent: "delete", id: String(id) });
    expect(step.status).toBe(200);
    expect(await step.text()).toContain("wirklich endgültig löschen?");
    expect(
      db()
        .select()
        .from(requests)
        .all()
        .map((r) => r.id),
    ).toContain(id);

    const done = await post({ intent: "delete", id: String(id), confirmed: "1" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/admin/requests");
    expect(
      db()
        .select()
        .from(requests)
        .all()
        .map((r) => r.id),
    ).not.toContain(id);
  });
});
