// The accessibility statement (BFSG §14, ADR 340): /barrierefreiheit from the configuration key
// `accessibility` (PATCH /api/configuration and the settings form), its links in the footers and
// under /embed, and its feedback form under the contact form's spam rules — honeypot, proof of
// work (held without one, never refused), SUBMISSION_RATE_LIMIT per client under parallel posts —
// with no mail to the typed address; the admin list erases entries, the retention run old ones.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCESSIBILITY_DEFAULTS, ACCESSIBILITY_SUGGESTIONS } from "~/lib/accessibility";
import { db } from "~/server/platform/db.server";
import { applyRetention } from "~/server/privacy/retention.server";
import { accessibilityFeedback, auditLog, mailOutbox } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { startSmtpInbox } from "../smtp-inbox";
import { startTestServer, type TestServer } from "./server";
import { settingsFormPost } from "./settings-post";

let server: TestServer;
let token: string;
let cookie: string;
let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({
    SMTP_URL: inbox.url,
    SUBMISSION_RATE_LIMIT: "3/1h",
    TRUST_PROXY: "fly",
  });
  token = await server.adminToken();
  cookie = await server.adminCookie();
});
afterAll(async () => {
  await server.close();
  await inbox.close();
  for (const key of ["SMTP_URL", "SUBMISSION_RATE_LIMIT", "TRUST_PROXY"]) delete process.env[key];
});

const from = (ip: string) => ({ "fly-client-ip": ip });
/** What is rendered: no hydration data (it repeats the loader's), no React's text separators. */
const rendered = (html: string) =>
  html.replace(/<script[\s\S]*?<\/script>/g, "").replaceAll("<!-- -->", "");
const page = async (path: string) => {
  const res = await server.fetch(path);
  // What is rendered (the hydration data after it repeats the loader's data).
  return { status: res.status, html: rendered(await res.text()) };
};
const patch = (accessibility: Record<string, unknown>) =>
  server.fetch("/api/configuration", { method: "PATCH", token, json: { accessibility } });
const send = (fields: Record<string, string>, ip = "198.51.100.1") =>
  server.fetch("/barrierefreiheit", {
    method: "POST",
    headers: from(ip),
    body: new URLSearchParams(fields),
  });
const entries = () => db().select().from(accessibilityFeedback).all();
const clear = () => db().delete(accessibilityFeedback).run();
const MESSAGE = "Der Knopf „Jetzt loslegen“ ist mit dem Screenreader nicht zu finden.";

describe("the statement page and its links", () => {
  it("is published by default with the product's texts, linked from every visitor footer and /embed", async () => {
    const statement = await page("/barrierefreiheit");
    expect(statement.status).toBe(200);
    expect(statement.html).toContain("Erklärung zur Barrierefreiheit");
    // Anlage 3 Nr. 1 a–c: the service, how to use it, how it meets the requirements.
    expect(statement.html).toContain("Was du hier tun kannst");
    expect(statement.html).toContain("So nutzt du die Seite");
    expect(statement.html).toContain(
      "Wie die Seite die Anforderungen an die Barrierefreiheit erfüllt",
    );
    expect(statement.html).toContain("axe-core");
    // No optional section without a text.
    expect(statement.html).not.toContain("Zuständige Marktüberwachungsbehörde");
    for (const path of ["/", "/anfrage-zurueckziehen", "/barrierefreiheit"]) {
      expect((await page(path)).html).toMatch(
        /<a[^>]*href="\/barrierefreiheit"[^>]*>Barrierefreiheit<\/a>/,
      );
    }
    expect((await page("/embed")).html).toMatch(/href="\/barrierefreiheit" target="_blank"/);
  });

  it("PATCH /api/configuration { accessibility }: texts, optional sections, clamps and publish", async () => {
    const saved = await patch({
      authority: ACCESSIBILITY_SUGGESTIONS.authority,
      limitations: "- Die Sprachaufnahme braucht ein Mikrofon.\n- Alternative: schreiben.",
      usage: "   ",
      feedbackDays: 5,
    });
    expect(saved.status).toBe(200);
    const config = await (await server.fetch("/api/configuration", { token })).json();
    expect(config.accessibility).toMatchObject({
      publish: true,
      usage: null,
      feedbackDays: 30,
      limitations: "- Die Sprachaufnahme braucht ein Mikrofon.\n- Alternative: schreiben.",
    });
    // The public configuration does not carry it.
    expect((await (await server.fetch("/api/configuration")).json()).accessibility).toBeUndefined();
    const statement = await page("/barrierefreiheit");
    expect(statement.html).toContain("Zuständige Marktüberwachungsbehörde");
    expect(statement.html).toContain("(MLBF) in Magdeburg");
    expect(statement.html).toMatch(/<li>Die Sprachaufnahme braucht ein Mikrofon\.<\/li>/);
    // An empty core text is the product's own again.
    expect(statement.html).toContain("Alles geht mit der Tastatur");

    expect((await patch({ publish: false })).status).toBe(200);
    expect((await page("/barrierefreiheit")).status).toBe(404);
    for (const path of ["/", "/anfrage-zurueckziehen"]) {
      expect((await page(path)).html).not.toContain('href="/barrierefreiheit"');
    }
    expect((await page("/embed")).html).not.toContain('href="/barrierefreiheit"');
    const refused = await send({ message: MESSAGE });
    expect(refused.status).toBe(404);
    expect(entries()).toEqual([]);
    expect((await patch({ publish: true, authority: null, limitations: null })).status).toBe(200);
  });

  it("the settings form stores the card; a text equal to the product's is stored as null", async () => {
    const settings = await server.fetch("/admin/settings", { headers: { cookie } });
    const html = await settings.text();
    expect(html).toContain('id="accessibility"');
    // The form as the page posts it (every section's marker and field), this card changed.
    const current = await (await server.fetch("/api/configuration", { token })).json();
    const form = settingsFormPost(current);
    for (const [field, value] of [
      ["accessibility.publish", "on"],
      ["accessibility.service", ACCESSIBILITY_DEFAULTS.service.replaceAll("\n", "\r\n")],
      ["accessibility.usage", ACCESSIBILITY_DEFAULTS.usage],
      ["accessibility.compliance", "Eigener Text zur Prüfung."],
      ["accessibility.contact", "barrierefreiheit@agentur.example"],
      ["accessibility.arbitration", ""],
      ["accessibility.feedbackDays", "90"],
      ["intent", "save"],
    ] as const)
      form.set(field, value);
    const saved = await server.fetch("/admin/settings", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(saved.status).toBe(302);
    const config = await (await server.fetch("/api/configuration", { token })).json();
    expect(config.accessibility).toMatchObject({
      publish: true,
      service: null,
      usage: null,
      compliance: "Eigener Text zur Prüfung.",
      contact: "barrierefreiheit@agentur.example",
      arbitration: null,
      feedbackDays: 90,
    });
    const statement = await page("/barrierefreiheit");
    expect(statement.html).toContain("Eigener Text zur Prüfung.");
    expect(statement.html).toContain("barrierefreiheit@agentur.example");
    // A number outside its range is refused at its field, nothing saved.
    form.set("accessibility.feedbackDays", "5");
    const refused = await server.fetch("/admin/settings", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Bitte geben Sie eine ganze Zahl von 30 bis 3650 ein.");
    expect((await patch({ compliance: null, contact: null, feedbackDays: 365 })).status).toBe(200);
  });

  it("the go-live check's optional item names what §14 asks for until it is given", async () => {
    const item = async () =>
      (
        (await (await server.fetch("/api/admin/setup-check", { token })).json()).items as {
          id: string;
          ok: boolean;
          optional: boolean;
          message: string;
        }[]
      ).find((i) => i.id === "accessibility");
    expect(await item()).toMatchObject({ ok: false, optional: true });
    expect((await item())?.message).toContain(
      "die Marktüberwachungsbehörde und die Schlichtungsstelle",
    );
    await patch({
      authority: ACCESSIBILITY_SUGGESTIONS.authority,
      arbitration: ACCESSIBILITY_SUGGESTIONS.arbitration,
    });
    expect(await item()).toMatchObject({ ok: true, optional: true });
    await patch({ publish: false });
    expect((await item())?.message).toContain("Veröffentlichen Sie");
    await patch({ publish: true, authority: null, arbitration: null });
  });
});

describe("the feedback form", () => {
  it("stores feedback with a solved proof of work as checked, without one as held; mails nobody", async () => {
    clear();
    const checked = await send({
      message: MESSAGE,
      location: "Startseite",
      name: "Ada",
      email: "ada@example.com",
      altcha: await solvedAltcha(server.url),
    });
    expect(checked.status).toBe(303);
    expect(checked.headers.get("location")).toBe("/barrierefreiheit?gesendet=1#rueckmeldung");
    // Without JavaScript there is no proof of work: stored, held for a human.
    const held = await send({ message: `${MESSAGE} (ohne JavaScript)`, email: "bob@example.com" });
    expect(held.status).toBe(303);
    expect(entries().map((e) => [e.message, e.held, e.email])).toEqual([
      [MESSAGE, false, "ada@example.com"],
      [`${MESSAGE} (ohne JavaScript)`, true, "bob@example.com"],
    ]);
    expect(entries()[0]).toMatchObject({ location: "Startseite", name: "Ada" });
    // Nothing goes to the typed addresses (or anywhere).
    await server.drainOutbox();
    const mails = db().select({ to: mailOutbox.to }).from(mailOutbox).all();
    expect(mails.filter((m) => /ada@|bob@/.test(m.to))).toEqual([]);
    expect(inbox.mails.filter((m) => m.to.some((to) => /ada@|bob@/.test(to)))).toEqual([]);
    // The thanks, at the form.
    const thanks = await page("/barrierefreiheit?gesendet=1");
    expect(thanks.html).toContain("Danke für deine Rückmeldung!");
  });

  it("a replayed proof of work is held; a filled honeypot and bad input are refused, nothing stored", async () => {
    clear();
    const solution = await solvedAltcha(server.url);
    expect((await send({ message: MESSAGE, altcha: solution }, "198.51.100.2")).status).toBe(303);
    expect((await send({ message: MESSAGE, altcha: solution }, "198.51.100.2")).status).toBe(303);
    expect(entries().map((e) => e.held)).toEqual([false, true]);

    clear();
    const bot = await send({ message: MESSAGE, website: "http://spam.example" }, "198.51.100.3");
    expect(bot.status).toBe(400);
    const empty = await send({ message: "  " }, "198.51.100.3");
    expect(empty.status).toBe(400);
    const emptyHtml = await empty.text();
    expect(emptyHtml).toContain("Bitte beschreib kurz, wo du auf eine Barriere gestoßen bist.");
    // Without JS the refused field takes the focus.
    expect(emptyHtml).toMatch(/<textarea[^>]*autofocus/i);
    const badAddress = await send({ message: MESSAGE, email: "kein-at" }, "198.51.100.3");
    expect(badAddress.status).toBe(400);
    expect(await badAddress.text()).toContain("Bitte gib eine gültige E-Mail-Adresse ein");
    expect(entries()).toEqual([]);
  });

  it("SUBMISSION_RATE_LIMIT per client holds under parallel posts; refused ones are given back", async () => {
    clear();
    const ip = "203.0.113.77";
    // Refused input does not count: three of them leave the whole budget.
    for (let i = 0; i < 3; i++) expect((await send({ message: "kurz" }, ip)).status).toBe(400);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => send({ message: `${MESSAGE} ${i}` }, ip)),
    );
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([303, 303, 303, 429, 429, 429, 429, 429]);
    const limited = answers.find((r) => r.status === 429);
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await limited?.text()).toContain("Zu viele Versuche. Bitte warte");
    expect(entries()).toHaveLength(3);
    // Another client has its own budget; the contact form's counter is a separate one.
    expect((await send({ message: MESSAGE }, "203.0.113.78")).status).toBe(303);
  });
});

describe("the admin list", () => {
  it("lists entries newest first, erases one after a confirmation (audited), and keeps them feedbackDays", async () => {
    clear();
    await send({ message: `${MESSAGE} A`, name: "Ada", email: "ada@example.com" }, "192.0.2.10");
    await send({ message: `${MESSAGE} B` }, "192.0.2.11");
    const [first, second] = entries();
    const list = await server.fetch("/admin/settings/barrierefreiheit", { headers: { cookie } });
    expect(list.status).toBe(200);
    const html = rendered(await list.text());
    expect(html).toContain("Rückmeldungen zur Barrierefreiheit (2)");
    expect(html.indexOf(`${MESSAGE} B`)).toBeLessThan(html.indexOf(`${MESSAGE} A`));
    expect(html).toContain('href="mailto:ada@example.com"');
    expect(html).toContain("Ungeprüft");
    expect((await server.fetch("/admin/settings/barrierefreiheit")).status).toBe(302);

    const erase = (fields: Record<string, string>) =>
      server.fetch("/admin/settings/barrierefreiheit", {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields).toString(),
      });
    // Without JS the first post asks (a confirmation step), nothing is erased yet.
    const asked = await erase({ id: String(first?.id) });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain(`Rückmeldung #${first?.id} wirklich löschen`);
    expect(entries()).toHaveLength(2);
    expect((await erase({ id: String(first?.id), confirmed: "1" })).status).toBe(302);
    expect(entries().map((e) => e.id)).toEqual([second?.id]);
    const audited = db()
      .select()
      .from(auditLog)
      .all()
      .filter((e) => e.action === "accessibility-feedback-deleted");
    expect(audited.map((e) => e.target)).toEqual([`Rückmeldung #${first?.id}`]);
    expect(JSON.stringify(audited)).not.toContain("ada@example.com");

    // The retention run erases entries older than feedbackDays (365 by default).
    const now = new Date();
    db()
      .update(accessibilityFeedback)
      .set({ createdAt: new Date(now.getTime() - 366 * 86_400_000) })
      .run();
    await send({ message: `${MESSAGE} C` }, "192.0.2.12");
    const result = await applyRetention(now);
    expect(result.feedback).toBe(1);
    expect(entries().map((e) => e.message)).toEqual([`${MESSAGE} C`]);
  });
});
