import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serializeToast } from "~/server/http/flash.server";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

describe("server flash toast", () => {
  it("is rendered into the page (no JS needed) and cleared by the same response", async () => {
    const cookie = (
      await serializeToast({ type: "success", message: "Gespeichert & fertig" })
    ).split(";")[0];
    const res = await server.fetch("/", { headers: { cookie } });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('aria-live="polite"');
    expect(html).toMatch(/data-toast="success"[^>]*>\s*<p[^>]*>Gespeichert &amp; fertig<\/p>/);
    expect(res.headers.get("set-cookie")).toMatch(/__flash=;.*Max-Age=0/i);
  });

  it("shows nothing and sets no cookie without a flash", async () => {
    const res = await server.fetch("/");
    const html = await res.text();
    expect(html).not.toContain("data-toast=");
    expect(res.headers.get("set-cookie") ?? "").not.toContain("__flash");
  });
});
