import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ GA_MEASUREMENT_ID: "G-TEST123" });
});
afterAll(async () => {
  await server.close();
});

describe("analytics (GA_MEASUREMENT_ID set)", () => {
  it("loads gtag with consent mode denied by default, anonymised IP and a one-year cookie", async () => {
    const res = await server.fetch("/");
    const html = await res.text();
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    expect(html).toContain(
      `<script async="" nonce="${nonce}" src="https://www.googletagmanager.com/gtag/js?id=G-TEST123"`,
    );
    expect(html).toContain("gtag('consent','default',{analytics_storage:'denied'");
    expect(html).toContain("gtag('consent','update',{analytics_storage:'denied'");
    expect(html).toContain("anonymize_ip:true,cookie_expires:31536000");
    expect(res.headers.get("content-security-policy")).toContain(
      "https://www.googletagmanager.com",
    );
  });

  it("grants analytics only after consent", async () => {
    const consent = await server.fetch("/preferences/consent", {
      method: "POST",
      body: new URLSearchParams({ choice: "custom", analytics: "on" }),
    });
    const cookie = (consent.headers.get("set-cookie") ?? "").split(";")[0];
    const html = await (await server.fetch("/", { headers: { cookie } })).text();
    expect(html).toContain(
      "gtag('consent','update',{analytics_storage:'granted',ad_storage:'denied'",
    );
  });

  it("never runs on admin pages", async () => {
    const html = await (await server.fetch("/admin/login")).text();
    expect(html).not.toContain("googletagmanager");
  });
});
