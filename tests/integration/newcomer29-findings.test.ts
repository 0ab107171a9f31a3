import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server";

// Issue 29, a newcomer's walk: guessed addresses lead somewhere real, the page title names the
// agency once, the feature icons take its colour.

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer({
    PRIVACY_URL: "https://agentur.example/datenschutz",
    IMPRINT_URL: "https://agentur.example/impressum",
  });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
});

const patch = (json: Record<string, unknown>) =>
  server.fetch("/api/configuration", { method: "PATCH", token, json });

describe("unknown paths", () => {
  it("/datenschutz and /impressum lead to the brand's legal pages, not the landing page", async () => {
    for (const [path, target] of [
      ["/datenschutz", "https://agentur.example/datenschutz"],
      ["/impressum/", "https://agentur.example/impressum"],
    ]) {
      const res = await server.fetch(path);
      expect(res.status, path).toBe(302);
      expect(res.headers.get("location"), path).toBe(target);
    }
    expect((await patch({ branding: { privacyUrl: "https://sued.example/dsgvo" } })).status).toBe(
      200,
    );
    const res = await server.fetch("/datenschutz");
    expect(res.headers.get("location")).toBe("https://sued.example/dsgvo");
  });

  it("/admin/requests/<id> opens that request in the list; anything else still leads to /", async () => {
    const res = await server.fetch("/admin/requests/3");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/admin/requests?requestId=3");
    for (const path of ["/admin/requests/abc", "/gibt-es-nicht", "/datenschutz/mehr"]) {
      const other = await server.fetch(path);
      expect(other.status, path).toBe(302);
      expect(other.headers.get("location"), path).toBe("/");
    }
  });
});

describe("landing page", () => {
  it("names the agency once in the title when the headline already does", async () => {
    await patch({
      branding: { name: "Agentur Süd", heroTitle: "Ihre Website in drei Tagen – von Agentur Süd" },
    });
    const html = await (await server.fetch("/")).text();
    expect(html).toContain("<title>Ihre Website in drei Tagen – von Agentur Süd</title>");
    await patch({ branding: { heroTitle: "Ihre Website in drei Tagen" } });
    const other = await (await server.fetch("/")).text();
    expect(other).toContain("<title>Ihre Website in drei Tagen – Agentur Süd</title>");
  });

  it("colours the feature icons with the brand's shades once a colour is set (today's blue before)", async () => {
    await patch({ branding: { primaryColor: null } });
    const plain = await (await server.fetch("/")).text();
    const icon = /<span aria-hidden="true" class="inline-flex ([^"]+)" data-feature-icon/;
    expect(plain.match(icon)?.[1]).toBe("text-blue-700 dark:text-blue-300");
    await patch({ branding: { primaryColor: "#0b5d1e" } });
    const branded = await (await server.fetch("/")).text();
    expect(branded.match(icon)?.[1]).toBe("text-indigo-700 dark:text-indigo-300");
    expect(branded).toContain("--color-indigo-700");
  });
});
