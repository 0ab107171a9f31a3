import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solvedAltcha } from "../altcha-solution";
import { insertAdmin } from "./auth-helpers";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

// The admin list renders each row's detail tabs only when the row is expanded (ADR 190): without
// JS through `?expand={id}`, with JS through GET /admin/requests/{id}/details.
let server: TestServer;
let cookie: string;
const tag = Math.random().toString(36).slice(2, 8);
let first = 0;
let second = 0;

async function submit(name: string, company: string): Promise<number> {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    // A solved proof of work: the request takes the normal flow and shows in the lists (ADR 250).
    body: multipart(
      validFields({ name, companyDescription: company, altcha: await solvedAltcha(server.url) }),
    ),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const page = async (path: string) => {
  const res = await server.fetch(path, { headers: { cookie } });
  expect(res.status).toBe(200);
  return res.text();
};

beforeAll(async () => {
  server = await startTestServer({ SUBMISSION_RATE_LIMIT: "1000/1h" });
  const admin = await insertAdmin(`liste-${tag}`, { passwordChanged: true });
  const login = await server.fetch("/admin/login", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username: admin.username, password: admin.password }).toString(),
  });
  cookie = login.headers.get("set-cookie")?.split(";")[0] as string;
  // Two lines each: a row shows the first (ADR 236), the details the whole description.
  first = await submit(
    `Erste ${tag}`,
    `Firma Eins ${tag} mit Werkstatt\nEins-Details ${tag} im Hof`,
  );
  second = await submit(
    `Zweite ${tag}`,
    `Firma Zwei ${tag} mit Laden\nZwei-Details ${tag} am Markt`,
  );
});
afterAll(() => server.close());

describe("request list rows and their details", () => {
  it("the list carries no row's detail tabs, only an expand link per row", async () => {
    const html = await page(`/admin/requests?q=${tag}`);
    expect(html).toContain(`Erste ${tag}`);
    expect(html).toContain(`Zweite ${tag}`);
    // Neither the detail sections nor their data (also not in the hydration data); the rows show
    // the company's first line only.
    expect(html).toContain(`Firma Eins ${tag} mit Werkstatt`);
    expect(html).not.toContain(`Eins-Details ${tag}`);
    expect(html).not.toContain(`Zwei-Details ${tag}`);
    expect(html).not.toContain("Vorbereitung speichern");
    expect(html).toContain(
      `href="/admin/requests?q=${tag}&amp;expand=${first}#request-${first}" data-discover="true"`,
    );
    expect(html).toContain(`id="request-${first}"`);
  });

  it("?expand= renders that row's six sections, no other row's, and a link closing it", async () => {
    const html = await page(`/admin/requests?q=${tag}&expand=${first}`);
    expect(html).toContain(`Eins-Details ${tag}`);
    expect(html).not.toContain(`Zwei-Details ${tag}`);
    for (const label of [
      "Unternehmen",
      "Anfrage",
      "Dateien",
      "Preparation",
      "AI Tools",
      "Zuweisung",
    ])
      expect(html).toContain(`aria-label="${label}"`);
    expect(html).toContain("Vorbereitung speichern");
    expect(html.match(/Vorbereitung speichern/g)).toHaveLength(1);
    expect(html).toContain(`aria-expanded="true"`);
    expect(html).toContain(`href="/admin/requests?q=${tag}#request-${first}"`);
    // An id outside the page expands nothing.
    const other = await page(`/admin/requests?q=${tag}-gibtesnicht&expand=${first}`);
    expect(other).not.toContain(`Eins-Details ${tag}`);
  });

  it("a form post from an expanded row returns to the same URL (row still expanded)", async () => {
    const list = `/admin/requests?q=${tag}&expand=${second}`;
    const res = await server.fetch(list, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        intent: "status",
        id: String(second),
        status: "Done",
      }).toString(),
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe(list);
    const html = await page(list);
    expect(html).toContain(`Zwei-Details ${tag}`);
  });

  it("GET /admin/requests/{id}/details answers the full request to admins only", async () => {
    const res = await server.fetch(`/admin/requests/${first}/details`, { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const body = (await res.json()) as { request: { id: number; companyDescription: string } };
    expect(body.request.id).toBe(first);
    // Form posts carry line breaks as CRLF.
    expect(body.request.companyDescription.replace(/\r\n/g, "\n")).toBe(
      `Firma Eins ${tag} mit Werkstatt\nEins-Details ${tag} im Hof`,
    );

    const missing = await server.fetch("/admin/requests/99999999/details", { headers: { cookie } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ request: null, error: "Anfrage nicht gefunden." });

    const anonymous = await server.fetch(`/admin/requests/${first}/details`, {
      redirect: "manual",
    });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("location")).toMatch(/^\/admin\/login/);
  });
});
