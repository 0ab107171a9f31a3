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

    // The page form (no JS) is limited by the same counter.
    const page = await server.fetch("/?index", { method: "POST", body: multipart(validFields()) });
    expect(page.status).toBe(429);
    expect(await page.text()).toContain("Zu viele Versuche.");
  });
});
