import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ SUBMISSION_RATE_LIMIT: "2/1h" });
});
afterAll(async () => {
  await server.close();
});

describe("submission rate limit (SUBMISSION_RATE_LIMIT=2/1h)", () => {
  it("accepts two submissions per IP and answers the third with 429 and a German message", async () => {
    for (let i = 0; i < 2; i++) {
      const res = await server.fetch("/api/requests", {
        method: "POST",
        body: multipart(validFields()),
      });
      expect(res.status).toBe(201);
    }
    const blocked = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields()),
    });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await blocked.json()).error).toMatch(/^Zu viele Versuche\. Bitte warte \d+ Minuten?/);

    // The page form (no JS) is limited by the same counter; what the visitor typed comes back
    // in the form (a refusal never throws a long description away), a file is not kept.
    const typed = validFields({
      description:
        "Eine lange Beschreibung: Vorbestellung, Abholung in der Filiale, Zahlung vor Ort.",
    });
    const page = await server.fetch("/?index", {
      method: "POST",
      body: multipart(typed, [{ name: "plan.pdf", bytes: Buffer.from("%PDF-1.4 plan") }]),
    });
    expect(page.status).toBe(429);
    const html = await page.text();
    expect(html).toContain("Zu viele Versuche.");
    expect(html).toContain(typed.description);
    expect(html).toContain(`value="${typed.email}"`);
    expect(html).toContain(`value="${typed.name}"`);
  });
});
