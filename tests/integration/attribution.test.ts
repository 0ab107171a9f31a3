import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestJson } from "~/lib/request-json";
import { eraseRequest } from "~/server/privacy/erasure.server";
import { solvedAltcha } from "../altcha-solution";
import { insertAdmin } from "./auth-helpers";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer({ SUBMISSION_RATE_LIMIT: "1000/1h" });
  token = await server.adminToken();
  const admin = await insertAdmin("quelle-admin", { passwordChanged: true });
  const login = await server.fetch("/admin/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: admin.username, password: admin.password }).toString(),
  });
  cookie = login.headers.get("set-cookie")?.split(";")[0] as string;
});

async function submit(fields: Record<string, string>): Promise<RequestJson> {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    // A solved proof of work: the request takes the normal flow and shows in the lists (ADR 250).
    body: multipart({ ...validFields(), ...fields, altcha: await solvedAltcha(server.url) }),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as RequestJson;
}
afterAll(async () => {
  await server.close();
});

/** The hidden attribution fields the landing page rendered, by name. */
async function hiddenFields(res: Response): Promise<Record<string, string>> {
  const html = await res.text();
  const found: Record<string, string> = {};
  const form = html.slice(html.indexOf('id="contact-form"'));
  for (const match of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    found[match[1]] = match[2].replaceAll("&amp;", "&");
  }
  return found;
}

const cookieNamed = (res: Response, name: string) =>
  res.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));

async function consentCookie(choice: "all" | "necessary") {
  const res = await server.fetch("/preferences/consent", {
    method: "POST",
    body: new URLSearchParams({ choice }),
  });
  return (cookieNamed(res, "cookie_consent") ?? "").split(";")[0];
}

describe("attribution", () => {
  it("runs from /?utm_source=… through the submission to the request JSON (API and admin API)", async () => {
    const landing = await server.fetch(
      "/?utm_source=newsletter&utm_medium=email&utm_campaign=herbst-2026&code=NOPE",
      { headers: { referer: "https://www.example.org/artikel/apps?name=Anna" } },
    );
    expect(landing.status).toBe(200);
    const fields = await hiddenFields(landing);
    expect(fields).toMatchObject({
      utmSource: "newsletter",
      utmMedium: "email",
      utmCampaign: "herbst-2026",
      // No query of the other site (it may carry personal data).
      referrer: "https://www.example.org/artikel/apps",
      landingPath: "/?code=NOPE",
    });
    // Stores nothing without consent.
    expect(cookieNamed(landing, "first_touch")).toBeUndefined();

    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart({ ...validFields(), ...fields }),
    });
    expect(res.status).toBe(201);
    const created = (await res.json()) as RequestJson;
    const expected = {
      source: "newsletter",
      medium: "email",
      campaign: "herbst-2026",
      referrer: "https://www.example.org/artikel/apps",
      landingPath: "/?code=NOPE",
    };
    expect(created.attribution).toEqual(expected);
    const read = await server.fetch(`/api/admin/requests/${created.id}`, { token });
    expect(((await read.json()) as RequestJson).attribution).toEqual(expected);
  });

  it("the no-JS page action stores the hidden fields too", async () => {
    const res = await server.fetch("/?index", {
      method: "POST",
      body: multipart({ ...validFields(), utmSource: "linkedin", landingPath: "/" }),
    });
    expect(res.status).toBe(303);
    const id = Number(/gesendet=(\d+)/.exec(res.headers.get("location") ?? "")?.[1]);
    const read = await server.fetch(`/api/admin/requests/${id}`, { token });
    expect(((await read.json()) as RequestJson).attribution).toEqual({
      source: "linkedin",
      medium: null,
      campaign: null,
      referrer: null,
      landingPath: "/",
    });
  });

  it("a refused no-JS post re-renders the form with the attribution it carried", async () => {
    const res = await server.fetch("/?index&utm_source=ignored", {
      method: "POST",
      body: multipart({ ...validFields({ name: "" }), utmSource: "carried", landingPath: "/" }),
    });
    expect(res.status).toBe(400);
    const fields = await hiddenFields(res);
    expect(fields.utmSource).toBe("carried");
    expect(fields.landingPath).toBe("/");
  });

  it("a request without attribution has every value null", async () => {
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields()),
    });
    expect(((await res.json()) as RequestJson).attribution).toEqual({
      source: null,
      medium: null,
      campaign: null,
      referrer: null,
      landingPath: null,
    });
  });

  it("refuses control characters and over-long values with 400", async () => {
    const bad: Record<string, string>[] = [
      { utmSource: "news\u0000letter" },
      { utmCampaign: "x".repeat(201) },
      { referrer: `https://example.org/${"a".repeat(500)}` },
    ];
    for (const fields of bad) {
      const res = await server.fetch("/api/requests", {
        method: "POST",
        body: multipart({ ...validFields(), ...fields }),
      });
      expect(res.status).toBe(400);
    }
  });

  it("ignores our own origin as referrer and caps what it renders", async () => {
    const res = await server.fetch(`/?utm_source=${"s".repeat(300)}`, {
      headers: { referer: `${server.url}/admin/login` },
    });
    const fields = await hiddenFields(res);
    expect(fields.referrer).toBeUndefined();
    expect(fields.utmSource).toBe("s".repeat(100));
  });

  it("is rendered per request, never from a cache", async () => {
    const a = await hiddenFields(await server.fetch("/?utm_source=erste"));
    const b = await hiddenFields(await server.fetch("/?utm_source=zweite"));
    const c = await hiddenFields(await server.fetch("/"));
    expect([a.utmSource, b.utmSource, c.utmSource]).toEqual(["erste", "zweite", undefined]);
  });

  it("sets no first-touch cookie after 'Nur notwendige', and ignores one sent anyway", async () => {
    const consent = await consentCookie("necessary");
    const res = await server.fetch("/?utm_source=ads", { headers: { cookie: consent } });
    expect(cookieNamed(res, "first_touch")).toBeUndefined();
    const forged = `first_touch=${btoa(encodeURIComponent(JSON.stringify({ source: "alt" })))}`;
    const again = await server.fetch("/?utm_source=ads", {
      headers: { cookie: `${consent}; ${forged}` },
    });
    expect((await hiddenFields(again)).utmSource).toBe("ads");
  });

  it("with analytics consent remembers the first touch, which wins over later visits", async () => {
    const consent = await consentCookie("all");
    const first = await server.fetch("/?utm_source=podcast&utm_campaign=folge-12", {
      headers: { cookie: consent, referer: "https://podcast.example/" },
    });
    const touch = cookieNamed(first, "first_touch");
    expect(touch).toMatch(/HttpOnly/i);
    expect(touch).toMatch(/SameSite=Lax/i);
    const cookie = `${consent}; ${(touch ?? "").split(";")[0]}`;
    const later = await server.fetch("/?utm_source=google", { headers: { cookie } });
    expect(cookieNamed(later, "first_touch")).toBeUndefined();
    expect(await hiddenFields(later)).toMatchObject({
      utmSource: "podcast",
      utmCampaign: "folge-12",
      referrer: "https://podcast.example",
      landingPath: "/",
    });

    // Withdrawing the consent deletes it.
    const withdrawn = await server.fetch("/preferences/consent", {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({ choice: "necessary" }),
    });
    expect(cookieNamed(withdrawn, "first_touch")).toMatch(/Max-Age=0/);
  });

  it("the admin list filters by source, the full-screen view shows the origin, CSV carries it", async () => {
    const a = await submit({
      name: "Quelle Alpha",
      utmSource: "filtertest-a",
      referrer: "https://a.example",
    });
    const b = await submit({ name: "Quelle Beta", utmSource: "filtertest-b" });
    const list = await (
      await server.fetch("/admin/requests?source=filtertest-a", { headers: { cookie } })
    ).text();
    expect(list).toContain("Quelle Alpha");
    expect(list).not.toContain("Quelle Beta");
    expect(list).toContain('<option value="filtertest-b">filtertest-b</option>');
    expect(list).toContain("Quelle: filtertest-a");
    const detail = await (
      await server.fetch(`/admin/requests?requestId=${a.id}`, { headers: { cookie } })
    ).text();
    expect(detail).toContain("Herkunft");
    expect(detail).toContain("https://a.example");
    const csv = await (
      await server.fetch("/api/admin/requests/export.csv?source=filtertest-b", { token })
    ).text();
    expect(csv).toContain(";filtertest-b;");
    expect(csv).toContain(`#${String(b.id).padStart(4, "0")};`);
    expect(csv).not.toContain(`#${String(a.id).padStart(4, "0")};`);
    const api = (await (
      await server.fetch("/api/admin/requests?source=filtertest-a", { token })
    ).json()) as { requests: RequestJson[] };
    expect(api.requests.map((r) => r.id)).toEqual([a.id]);
    const stats = (await (await server.fetch("/api/admin/stats", { token })).json()) as {
      conversion: { bySource: { label: string | null; count: number }[] };
    };
    expect(stats.conversion.bySource).toContainEqual({ label: "filtertest-b", count: 1 });
  });

  it("anonymising keeps source, medium and campaign (statistics) but drops referrer and landing path", async () => {
    const created = await submit({
      utmSource: "anon",
      utmMedium: "cpc",
      utmCampaign: "winter",
      referrer: "https://partner.example/profil/anna",
      landingPath: "/?code=ANNA",
    });
    await eraseRequest(created.id, "anonymize");
    const read = await server.fetch(`/api/admin/requests/${created.id}`, { token });
    expect(((await read.json()) as RequestJson).attribution).toEqual({
      source: "anon",
      medium: "cpc",
      campaign: "winter",
      referrer: null,
      landingPath: null,
    });
  });
});

// ADR 215: a click on the cookie bar (or the info banner, the theme switch) must not change
// where the visitor came from: the landing path and referrer are the landing document's (ADR 215).
describe("attribution across the preference posts", () => {
  const google = "https://www.google.com/";
  const own = () => ({ referer: `${server.url}/?utm_source=bannertest` });

  it("a data request (the revalidation after the post) renders no attribution and sets no first touch", async () => {
    const consent = await consentCookie("all");
    const res = await server.fetch("/_.data?utm_source=bannertest", {
      headers: { cookie: consent, ...own() },
    });
    expect(res.status).toBe(200);
    expect(cookieNamed(res, "first_touch")).toBeUndefined();
    const body = await res.text();
    // Neither this URL's utm_source nor its path: the page keeps its document's attribution.
    expect(body).not.toContain("_.data");
    expect(body).not.toContain("bannertest");
  });

  it("with JS: consent to analytics remembers the posted landing document's attribution", async () => {
    const res = await server.fetch("/preferences/consent", {
      method: "POST",
      headers: { referer: `${server.url}/?utm_source=bannertest` },
      body: new URLSearchParams({
        choice: "all",
        js: "1",
        utmSource: "bannertest",
        referrer: "https://www.google.com",
        landingPath: "/?seite=preise",
      }),
    });
    expect(res.status).toBe(200);
    const touch = cookieNamed(res, "first_touch");
    expect(touch).toMatch(/HttpOnly/i);
    const consent = (cookieNamed(res, "cookie_consent") ?? "").split(";")[0];
    const later = await server.fetch("/?utm_source=other", {
      headers: { cookie: `${consent}; ${(touch ?? "").split(";")[0]}`, ...own() },
    });
    expect(await hiddenFields(later)).toMatchObject({
      utmSource: "bannertest",
      referrer: "https://www.google.com",
      landingPath: "/?seite=preise",
    });
  });

  it("an existing first touch is kept; no attribution posted, none remembered", async () => {
    const stored = await consentCookie("all");
    const first = await server.fetch("/?utm_source=erster", {
      headers: { cookie: stored, referer: google },
    });
    const touch = (cookieNamed(first, "first_touch") ?? "").split(";")[0];
    const again = await server.fetch("/preferences/consent", {
      method: "POST",
      headers: { cookie: `${stored}; ${touch}` },
      body: new URLSearchParams({ choice: "all", js: "1", utmSource: "zweiter" }),
    });
    expect(cookieNamed(again, "first_touch")).toBeUndefined();
    const empty = await server.fetch("/preferences/consent", {
      method: "POST",
      body: new URLSearchParams({ choice: "all", js: "1" }),
    });
    expect(cookieNamed(empty, "first_touch")).toBeUndefined();
  });

  it("without JS, 'Nur notwendige' carries the external referrer across the redirect (nothing stored)", async () => {
    const res = await server.fetch("/preferences/consent", {
      method: "POST",
      body: new URLSearchParams({
        choice: "necessary",
        redirectTo: "/?utm_source=bannertest",
        utmSource: "bannertest",
        referrer: "https://www.google.com",
        landingPath: "/",
      }),
    });
    expect(res.status).toBe(303);
    const location = res.headers.get("location") ?? "";
    expect(location).toBe("/?utm_source=bannertest&ref=https%3A%2F%2Fwww.google.com");
    expect(cookieNamed(res, "first_touch")).toBeUndefined();
    const consent = (cookieNamed(res, "cookie_consent") ?? "").split(";")[0];
    const back = await server.fetch(location, { headers: { cookie: consent, ...own() } });
    expect(await hiddenFields(back)).toMatchObject({
      utmSource: "bannertest",
      referrer: "https://www.google.com",
      landingPath: "/",
    });
  });

  it("without JS, the info banner and the theme switch carry it too; a foreign `ref` path is not built", async () => {
    for (const [path, fields] of [
      ["/preferences/banner", { key: "0123abcd" }],
      ["/preferences/theme", { theme: "dark" }],
    ] as const) {
      const res = await server.fetch(path, {
        method: "POST",
        body: new URLSearchParams({ ...fields, redirectTo: "/", referrer: google }),
      });
      expect(res.status, path).toBe(303);
      expect(res.headers.get("location"), path).toBe("/?ref=https%3A%2F%2Fwww.google.com");
      const plain = await server.fetch(path, {
        method: "POST",
        body: new URLSearchParams({ ...fields, redirectTo: "/admin/settings" }),
      });
      expect(plain.headers.get("location"), path).toBe("/admin/settings");
    }
  });
});
