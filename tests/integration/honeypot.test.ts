import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { HONEYPOT_REFUSED } from "~/server/spam/honeypot.server";
import { requests } from "~db/schema";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

// Every public form carries the same honeypot (<Honeypot />, field "website"); a filled one is
// refused with 400 by the one shared check before any rule or side effect runs.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const BOT = { website: "http://spam.example" };
const postForm = (path: string, fields: Record<string, string>, cookie?: string) =>
  server.fetch(path, {
    method: "POST",
    headers: cookie ? { cookie } : {},
    body: new URLSearchParams(fields),
  });
const requestCount = () => db().select({ id: requests.id }).from(requests).all().length;

describe("honeypot on every public form", () => {
  it.each([
    ["/admin/login", { username: "admin", password: "admin-passwort" }],
    ["/admin/register", { invitationToken: "x", username: "bot", password: "geheim-123" }],
    ["/admin/forgot-password", { email: "admin@example.com" }],
    ["/admin/reset-password", { token: "x", newPassword: "ganz-neu-123", confirmPassword: "x" }],
    ["/anfrage-zurueckziehen", { id: "1", confirmed: "1" }],
    ["/termin", { startTime: "2030-01-07T09:00:00.000Z" }],
    ["/termin/verwalten?token=x", { intent: "cancel" }],
  ])("%s refuses a filled honeypot with 400 and the shared message", async (path, fields) => {
    const res = await postForm(path, { ...fields, ...BOT });
    expect(res.status).toBe(400);
    expect(res.headers.get("set-cookie") ?? "").not.toMatch(/session/i);
    expect(await res.text()).toContain(HONEYPOT_REFUSED);
  });

  it.each(["/admin/login", "/admin/forgot-password", "/"])(
    "%s renders the honeypot field (off-screen, out of the tab order)",
    async (path) => {
      const html = await (await server.fetch(path)).text();
      expect(html).toMatch(
        /<input[^>]*name="website"[^>]*tabindex="-1"|<input[^>]*tabindex="-1"[^>]*name="website"/i,
      );
    },
  );

  it("the same login without the honeypot is not refused by it (the check is what answers 400)", async () => {
    const res = await postForm("/admin/login", { username: "admin", password: "admin-passwort" });
    expect(res.status).not.toBe(400);
    expect(await res.text()).not.toContain(HONEYPOT_REFUSED);
  });

  it("an empty honeypot (what people send) passes", async () => {
    const res = await postForm("/admin/forgot-password", { email: "x@example.com", website: "" });
    expect(res.status).toBe(200);
  });

  it("the contact form (page and API) refuses it with 400 and stores nothing", async () => {
    const before = requestCount();
    const page = await server.fetch("/?index", {
      method: "POST",
      body: multipart(validFields(BOT)),
    });
    expect(page.status).toBe(400);
    const api = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields(BOT)),
    });
    expect(api.status).toBe(400);
    expect(requestCount()).toBe(before);
  });

  it("a withdrawal with a filled honeypot erases nothing", async () => {
    const created = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields()),
    });
    expect(created.status).toBe(201);
    const cookie = (created.headers.get("set-cookie") ?? "").split(";")[0];
    const { id } = (await created.json()) as { id: number };
    const before = requestCount();
    const res = await postForm(
      "/anfrage-zurueckziehen",
      { id: String(id), confirmed: "1", ...BOT },
      cookie,
    );
    expect(res.status).toBe(400);
    expect(requestCount()).toBe(before);
  });
});
