import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function submit() {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields()),
  });
  expect(res.status).toBe(201);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
  return { id: ((await res.json()) as { id: number }).id, cookie };
}

const post = (fields: Record<string, string>, cookie?: string) =>
  server.fetch("/anfrage-zurueckziehen", {
    method: "POST",
    headers: cookie ? { cookie } : {},
    body: new URLSearchParams(fields),
  });

const exists = (id: number) =>
  db()
    .select({ id: requests.id })
    .from(requests)
    .all()
    .some((r) => r.id === id);

describe("visitor withdraws a request", () => {
  it("asks first without JS, then erases the request and forgets it in the history cookie", async () => {
    const { id, cookie } = await submit();
    const landing = await (await server.fetch("/", { headers: { cookie } })).text();
    expect(landing).toContain("Anfrage zurückziehen");
    expect(landing).toContain("Datenschutz-Kontakt");

    const step = await post({ id: String(id) }, cookie);
    expect(step.status).toBe(200);
    const html = await step.text();
    expect(html).toContain("data-confirmation-step");
    expect(html).toContain("wirklich zurückziehen?");
    expect(exists(id)).toBe(true);

    const done = await post({ id: String(id), confirmed: "1" }, cookie);
    expect(done.status).toBe(303);
    expect(done.headers.get("location")).toBe("/");
    expect(exists(id)).toBe(false);
    const cookies = done.headers.getSetCookie().join("\n");
    expect(cookies).toContain("visitor_requests=");
    expect(cookies).toContain("__flash=");
  });

  it("refuses someone else's request", async () => {
    const { id } = await submit();
    const other = await submit();
    const res = await post({ id: String(id), confirmed: "1" }, other.cookie);
    expect(res.status).toBe(302);
    expect(exists(id)).toBe(true);
    const anonymous = await post({ id: String(id), confirmed: "1" });
    expect(anonymous.status).toBe(302);
    expect(exists(id)).toBe(true);
  });

  it("GET only points back to the history", async () => {
    const res = await server.fetch("/anfrage-zurueckziehen");
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('href="/#history"');
    expect(html).not.toContain("data-confirmation-step");
  });
});

describe("privacy note by the form", () => {
  it("says what is stored, why and for how long (configurable), linking PRIVACY_URL", async () => {
    const html = await (await server.fetch("/")).text();
    const note = /data-testid="privacy-note"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? "";
    expect(note).toContain("um deine Anfrage zu bearbeiten");
    expect(note).toContain("nach 24 Monaten");
    expect(note).toMatch(/href="[^"]*"[^>]*>Datenschutzerklärung/);
    saveConfiguration({
      retention: { requestMonths: 6 },
      privacyNote: "Eigener Hinweis: {monate} Monate.",
    });
    const custom = await (await server.fetch("/")).text();
    expect(custom).toContain("Eigener Hinweis: 6 Monate.");
  });
});
