import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ GA_MEASUREMENT_ID: "G-TEST123" });
});
afterAll(async () => {
  await server.close();
});

async function consent(fields: Record<string, string>, cookie = "") {
  const res = await server.fetch("/preferences/consent", {
    method: "POST",
    headers: cookie ? { cookie } : {},
    body: new URLSearchParams(fields),
  });
  return res;
}
const first = (res: Response) => (res.headers.getSetCookie()[0] ?? "").split(";")[0];

describe("analytics (GA_MEASUREMENT_ID set)", () => {
  it("renders nothing of Google before consent (TDDDG §25)", async () => {
    const res = await server.fetch("/");
    const html = await res.text();
    expect(html).not.toContain("googletagmanager");
    expect(html).not.toContain("gtag(");
  });

  it("loads gtag only after consent, with anonymised IP and a one-year cookie", async () => {
    const cookie = first(await consent({ choice: "all" }));
    const res = await server.fetch("/", { headers: { cookie } });
    const html = await res.text();
    const nonce = /'nonce-([^']+)'/.exec(res.headers.get("content-security-policy") ?? "")?.[1];
    expect(html).toContain(
      `<script async="" nonce="${nonce}" src="https://www.googletagmanager.com/gtag/js?id=G-TEST123"`,
    );
    expect(html).toContain(
      "gtag('consent','default',{analytics_storage:'granted',ad_storage:'denied',ad_user_data:'denied',ad_personalization:'denied'}",
    );
    expect(html).toContain("anonymize_ip:true,cookie_expires:31536000");
    expect(res.headers.get("content-security-policy")).toContain(
      "https://www.googletagmanager.com",
    );
  });

  it("a custom choice with analytics grants analytics only", async () => {
    const cookie = first(await consent({ choice: "custom", analytics: "on" }));
    const html = await (await server.fetch("/", { headers: { cookie } })).text();
    expect(html).toContain(
      "gtag('consent','default',{analytics_storage:'granted',ad_storage:'denied'",
    );
  });

  it("'Nur notwendige' (or a withdrawal) deletes every _ga cookie, on the host and its parent domain", async () => {
    const res = await consent(
      { choice: "necessary" },
      "_ga=GA1.1.123.456; _ga_ABC123=GS1.1.789; theme=dark; _gid=GA1.1.42",
    );
    const cookies = res.headers.getSetCookie();
    const deleted = cookies.filter((c) => /Max-Age=0/.test(c)).map((c) => c.split("=")[0]);
    expect(new Set(deleted)).toEqual(new Set(["_ga", "_ga_ABC123", "_gid"]));
    expect(cookies.some((c) => c.startsWith("theme="))).toBe(false);
    const html = await (await server.fetch("/", { headers: { cookie: first(res) } })).text();
    expect(html).not.toContain("googletagmanager");
  });

  it("never runs on admin pages", async () => {
    const html = await (await server.fetch("/admin/login")).text();
    expect(html).not.toContain("googletagmanager");
  });
});
