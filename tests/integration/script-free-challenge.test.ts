// The script-free challenge (ADR 326): a no-JS post of the landing page or the framed form without
// a proof of work is held as before, and its thank-you page asks one question; a right answer
// releases it into the normal flow (receipt, notification) within the daily ceiling and the
// per-client limit — in parallel too, and across a restart —, wrong answers get new questions
// and then leave it held. POST /api/requests is unchanged; a blocklist hit is never asked.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readAnswer } from "~/lib/script-free-challenge";
import { embedFormToken } from "~/server/embed/embed.server";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { startSmtpInbox } from "../smtp-inbox";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

const ENV = {
  TRUST_PROXY: "fly",
  SUBMISSION_RATE_LIMIT: "1000/1h",
};
let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let server: TestServer;
let token: string;

async function start() {
  server = await startTestServer({ ...ENV, SMTP_URL: inbox.url });
  token = await server.adminToken();
}
beforeAll(async () => {
  inbox = await startSmtpInbox();
  await start();
  const res = await server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: { emailNotifications: { enabled: true, externalEmails: ["team@example.com"] } },
  });
  expect(res.status).toBe(200);
});
afterAll(async () => {
  await server.close();
  await inbox.close();
  for (const key of Object.keys(ENV)) delete process.env[key];
});

let clients = 0;
/** A new client address (TRUST_PROXY=fly): per-client limits start afresh. */
const newClient = () => `198.51.100.${++clients}`;

type Page = { location: URL; cookie: string; raw?: string };

/** The no-JS post of the landing page (multipart, no proof of work) from `ip`. */
async function postLanding(ip: string, fields: Record<string, string> = {}): Promise<Page> {
  const res = await server.fetch("/", {
    method: "POST",
    headers: { "fly-client-ip": ip, origin: server.url },
    body: multipart(validFields(fields)),
  });
  expect(res.status).toBe(303);
  return {
    location: new URL(res.headers.get("location") as string, server.url),
    cookie: (res.headers.get("set-cookie") ?? "").split(";")[0] as string,
    raw: res.headers.get("location") as string,
  };
}

const held = (id: number) =>
  Boolean(db().select().from(requests).where(eq(requests.id, id)).get()?.quarantinedAt);

/** The thank-you page as the browser shows it after a redirect. */
async function pageAt(page: Page) {
  const res = await server.fetch(`${page.location.pathname}${page.location.search}`, {
    headers: { cookie: page.cookie },
  });
  expect(res.status).toBe(200);
  return res.text();
}

/** The question's right answer, read from the page as a person reads it. */
function solve(html: string): string {
  const question = /<label for="pruefung-antwort"[^>]*>([^<]+)<\/label>/.exec(html)?.[1];
  if (!question) throw new Error("no question on the page");
  const [, a, op, b] = /^Wie viel ist (\S+) (plus|minus) (\S+)\?$/.exec(question) ?? [];
  const x = readAnswer(a as string) as number;
  const y = readAnswer(b as string) as number;
  return String(op === "plus" ? x + y : x - y);
}

/** The answer form's post from `ip`; the redirect's target. */
async function answer(page: Page, html: string, text: string, ip: string): Promise<Page> {
  const field = (name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1]?.replaceAll("&amp;", "&") ?? "";
  const res = await server.fetch(`${page.location.pathname}?antwort`, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "fly-client-ip": ip,
      origin: server.url,
      cookie: page.cookie,
    },
    body: new URLSearchParams({
      intent: "script-free-answer",
      pruefung: field("pruefung"),
      gesendet: field("gesendet"),
      antwort: text,
    }).toString(),
  });
  expect(res.status).toBe(303);
  return {
    location: new URL(res.headers.get("location") as string, server.url),
    cookie: page.cookie,
  };
}

const idOf = (page: Page) => Number(page.location.searchParams.get("gesendet"));

const setCeiling = async (dailyLimit: number) => {
  const res = await server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: { scriptFree: { dailyLimit } },
  });
  expect(res.status).toBe(200);
};

describe("the script-free challenge", () => {
  it("a right answer takes the held request into the normal flow: receipt and notification", async () => {
    const ip = newClient();
    const email = "ohne.js@example.com";
    const sent = await postLanding(ip, { email });
    // A fragment naming no element: the answer field's autofocus works.
    expect(sent.raw).toMatch(/&pruefung=[\w.-]+#frage$/);
    const id = idOf(sent);
    expect(held(id)).toBe(true);
    const html = await pageAt(sent);
    expect(html).toContain("Eine kurze Frage noch");
    expect(html).toMatch(
      /<label for="pruefung-antwort"[^>]*>Wie viel ist \S+ (plus|minus) \S+\?<\/label>/,
    );
    expect(html).toContain('aria-describedby="pruefung-hinweis"');
    await server.drainOutbox();
    expect(inbox.mails.filter((m) => m.to.includes(email))).toEqual([]);

    const done = await answer(sent, html, solve(html), ip);
    expect(done.location.searchParams.get("ergebnis")).toBe("angekommen");
    expect(held(id)).toBe(false);
    expect(await pageAt(done)).toContain("Danke! Deine Anfrage ist jetzt bei uns angekommen.");
    await server.drainOutbox();
    expect(inbox.mails.filter((m) => m.to.includes(email)).map((m) => m.subject)).toEqual([
      "Deine Anfrage ist bei uns eingegangen",
    ]);
    expect(
      inbox.mails.some(
        (m) =>
          m.to.includes("team@example.com") &&
          m.subject.includes(`#${String(id).padStart(4, "0")}`),
      ),
    ).toBe(true);
    // The used question releases nothing twice and is asked no more.
    const again = await answer(sent, html, solve(html), ip);
    expect(again.location.searchParams.get("ergebnis")).toBeNull();
    expect(await pageAt(again)).not.toContain("pruefung-antwort");
  });

  it("wrong answers get new questions, the third leaves it held for a human; a used question is spent", async () => {
    const ip = newClient();
    let page = await postLanding(ip);
    const id = idOf(page);
    let html = await pageAt(page);
    const first = html;
    for (const left of [2, 1]) {
      page = await answer(page, html, "999", ip);
      expect(page.location.searchParams.get("ergebnis")).toBe("falsch");
      html = await pageAt(page);
      expect(html).toContain(
        `Das war leider nicht richtig. Hier ist eine neue Frage (${left === 1 ? "noch ein Versuch" : "noch 2 Versuche"}).`,
      );
    }
    // The first question, answered right now, was used up: it releases nothing.
    const replay = await answer(page, first, solve(first), ip);
    expect(replay.location.searchParams.get("ergebnis")).toBeNull();
    expect(await pageAt(replay)).toContain("Wir sehen sie uns von Hand an");
    expect(held(id)).toBe(true);
    page = await answer(page, html, "999", ip);
    expect(page.location.searchParams.get("ergebnis")).toBe("von-hand");
    const last = await pageAt(page);
    expect(last).toContain("Wir sehen sie uns von Hand an");
    expect(last).not.toContain("pruefung-antwort");
    expect(held(id)).toBe(true);
  });

  it("POST /api/requests is unchanged: held, no question; a blocklist hit is never asked", async () => {
    const api = await server.fetch("/api/requests", {
      method: "POST",
      headers: { "fly-client-ip": newClient() },
      body: multipart(validFields()),
    });
    expect(api.status).toBe(201);
    const body = (await api.json()) as Record<string, unknown>;
    expect(held(body.id as number)).toBe(true);
    expect(JSON.stringify(body)).not.toMatch(/pruefung|challenge/);

    const blocked = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { spam: { blocklist: ["*@gesperrt.example"] } },
    });
    expect(blocked.status).toBe(200);
    const page = await postLanding(newClient(), { email: "bot@gesperrt.example" });
    expect(page.location.searchParams.has("pruefung")).toBe(false);
    expect(page.location.hash).toBe("#contact");
    const html = await pageAt(page);
    expect(html).toContain("ist bei uns eingegangen");
    expect(html).not.toContain("Eine kurze Frage noch");
    expect(html).not.toContain("von Hand");
    await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { spam: { blocklist: [] } },
    });
  });

  it("the framed form asks the same question and releases by it", async () => {
    const ip = newClient();
    const res = await server.fetch("/embed", {
      method: "POST",
      headers: { "fly-client-ip": ip, origin: server.url },
      body: multipart({ ...validFields(), embedToken: embedFormToken() }),
    });
    expect(res.status).toBe(303);
    const sent = {
      location: new URL(res.headers.get("location") as string, server.url),
      cookie: "",
    };
    expect(sent.location.pathname).toBe("/embed");
    expect(sent.location.searchParams.has("pruefung")).toBe(true);
    const html = await pageAt(sent);
    expect(html).toContain('action="/embed?antwort"');
    const done = await answer(sent, html, solve(html), ip);
    expect(done.location.pathname).toBe("/embed");
    expect(await pageAt(done)).toContain("Danke! Deine Anfrage ist jetzt bei uns angekommen.");
  });

  it("the daily ceiling holds under parallel answers and across a restart", async () => {
    await setCeiling(20);
    // Today's releases so far: the landing page's and the frame's above.
    const pages = await Promise.all(
      Array.from({ length: 22 }, async () => {
        const ip = newClient();
        const page = await postLanding(ip);
        return { page, ip, html: await pageAt(page) };
      }),
    );
    const outcomes = await Promise.all(
      pages.map(({ page, ip, html }) => answer(page, html, solve(html), ip)),
    );
    const results = outcomes.map((o) => o.location.searchParams.get("ergebnis"));
    expect(results.filter((r) => r === "angekommen")).toHaveLength(18);
    expect(results.filter((r) => r === "von-hand")).toHaveLength(4);
    const released = pages.filter(({ page }) => !held(idOf(page)));
    expect(released).toHaveLength(18);
    const byHand = outcomes.find((o) => o.location.searchParams.get("ergebnis") === "von-hand");
    expect(await pageAt(byHand as Page)).toContain("Wir sehen sie uns von Hand an");

    // Restarted: the day's count is in SQLite.
    await server.close();
    await start();
    const ip = newClient();
    const late = await postLanding(ip);
    const html = await pageAt(late);
    const after = await answer(late, html, solve(html), ip);
    expect(after.location.searchParams.get("ergebnis")).toBe("von-hand");
    expect(held(idOf(late))).toBe(true);
  });

  it("one client is released three times a day, also when it answers in parallel", async () => {
    await setCeiling(1000);
    const ip = newClient();
    const pages = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const page = await postLanding(ip);
        return { page, html: await pageAt(page) };
      }),
    );
    const outcomes = await Promise.all(
      pages.map(({ page, html }) => answer(page, html, solve(html), ip)),
    );
    const results = outcomes.map((o) => o.location.searchParams.get("ergebnis")).sort();
    expect(results).toEqual(["angekommen", "angekommen", "angekommen", "von-hand", "von-hand"]);
  });

  it("a ceiling of 0 asks no question", async () => {
    await setCeiling(0);
    const page = await postLanding(newClient());
    expect(page.location.searchParams.has("pruefung")).toBe(false);
    expect(held(idOf(page))).toBe(true);
    await setCeiling(20);
  });
});
