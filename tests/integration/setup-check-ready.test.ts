// The go-live check of a configured install (SMTP, https APP_URL, own legal pages, replica, AI): every
// item green once a test mail has left, remembered durably and only for the SMTP in use. And "My
// account" with SMTP: a new address applies only through the signed link mailed to it, the old
// address is told, the change is audited.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SetupCheckItem } from "~/lib/setup-check";
import { emailChangeToken } from "~/server/accounts/account.server";
import { apiLogin, insertAdmin, linkToken, startInbox, testDb } from "./auth-helpers";
import { nextBookableWeekday } from "./booking-days";
import { startTestServer, type TestServer } from "./server";

const ENV = {
  APP_URL: "https://anfragen.agentur.de",
  PRIVACY_URL: "https://agentur.de/datenschutz",
  IMPRINT_URL: "https://agentur.de/impressum",
  LITESTREAM_REPLICA_URL: "file:///tmp/anfrage-replica",
  ANTHROPIC_API_KEY: "test-key",
  ADMIN_EMAIL: "chefin@agentur.de",
};
let inbox: Awaited<ReturnType<typeof startInbox>>;
let server: TestServer;
let token: string;

beforeAll(async () => {
  inbox = await startInbox();
  server = await startTestServer({ ...ENV, SMTP_URL: inbox.url });
  token = await server.adminToken();
  // A configured install tells someone of each new lead (the optional `notifications` item).
  const configured = await server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: {
      emailNotifications: { enabled: true, adminEmails: [], externalEmails: ["team@agentur.de"] },
      // The hours were reviewed (the `scheduling` item): a scheduling patch counts as the review.
      scheduling: {},
      // The Firma and the Pflichtangaben of a GmbH (the `mailIdentity` item, ADR 325).
      mailIdentity: {
        companyName: "Agentur Beispiel GmbH",
        legalForm: "gmbh",
        street: "Hauptstraße 1",
        postalCode: "10115",
        city: "Berlin",
        seat: "Berlin",
        registerCourt: "Amtsgericht Charlottenburg",
        registerNumber: "HRB 123456 B",
        managingDirectors: "Erika Beispiel",
      },
      // The accessibility statement names the authority and the Schlichtung (the optional
      // `accessibility` item, ADR 340).
      accessibility: {
        authority: "Marktüberwachungsstelle der Länder für die Barrierefreiheit (MLBF), Magdeburg",
        arbitration: "Schlichtungsstelle nach § 34 BFSG, Berlin",
      },
    },
  });
  expect(configured.status).toBe(200);
});
afterAll(async () => {
  await server.close();
  await inbox.close();
  for (const key of Object.keys(ENV)) delete process.env[key];
  process.env.ADMIN_EMAIL = "admin@example.com";
  delete process.env.SMTP_URL;
});

async function check() {
  const res = await server.fetch("/api/admin/setup-check", { token });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { ready: boolean; items: SetupCheckItem[] };
  return { ...body, item: (id: string) => body.items.find((i) => i.id === id) as SetupCheckItem };
}

function sql<T>(query: string, ...params: unknown[]): T[] {
  const db = testDb();
  try {
    const statement = db.prepare(query);
    if (!statement.reader) {
      statement.run(...params);
      return [];
    }
    return statement.all(...params) as T[];
  } finally {
    db.close();
  }
}

describe("the go-live check of a configured install", () => {
  it("every item but the test mail is green, each with its confirmation", async () => {
    const { ready, items, item } = await check();
    expect(ready).toBe(false);
    expect(items.filter((i) => !i.ok).map((i) => i.id)).toEqual(["testMail"]);
    expect(item("testMail").message).toBe(
      "Senden Sie eine Test-E-Mail an Ihre Adresse und prüfen Sie, ob sie ankommt.",
    );
    expect(item("smtp").message).toBe("E-Mails werden über SMTP versendet.");
    expect(item("appUrlHttps").message).toContain("https://anfragen.agentur.de");
    expect(item("legalUrls").message).toContain("Ihre eigenen Seiten");
    expect(item("mailIdentity").message).toBe(
      "Jede E-Mail trägt die Firma Agentur Beispiel GmbH und die Pflichtangaben (GmbH).",
    );
    expect(item("adminEmails").message).toContain("erreichbare E-Mail-Adresse");
    expect(item("sessionSecret").message).toContain("Umgebungsvariable gesetzt");
    expect(item("backups").message).toContain("Litestream");
    expect(item("ai")).toMatchObject({ ok: true, optional: true });
  });

  it("the test mail reaches the calling admin (202); then the check is ready", async () => {
    const res = await server.fetch("/api/admin/setup-check/test-mail", { method: "POST", token });
    expect(res.status).toBe(202);
    expect(await res.json()).toMatchObject({ success: true, mailed: true });
    await server.drainOutbox();
    const mail = await inbox.waitFor(ENV.ADMIN_EMAIL, /Test-E-Mail von Anfrage-Portal/);
    expect(mail.text).toContain("Wenn Sie sie lesen, funktioniert der E-Mail-Versand.");
    const { ready, item } = await check();
    expect(item("testMail")).toMatchObject({
      ok: true,
      message: "Die Test-E-Mail wurde erfolgreich versendet.",
    });
    expect(ready).toBe(true);
    // The dashboard no longer shows the check.
    const cookie = await server.adminCookie();
    const html = await (await server.fetch("/admin/dashboard", { headers: { cookie } })).text();
    expect(html).toContain("Übersicht");
    expect(html).not.toContain("Go-live-Check");
  });

  it("the success is remembered beyond the outbox, but only for the SMTP in use", async () => {
    sql("DELETE FROM mail_outbox WHERE kind = 'setup-test-mail'");
    expect((await check()).item("testMail").ok).toBe(true);
    sql(
      "UPDATE job_runs SET result = json_object('smtp', 'anderer-server') WHERE name = 'setup-check:test-mail'",
    );
    const red = (await check()).item("testMail");
    expect(red.ok).toBe(false);
    expect((await check()).ready).toBe(false);
  });

  it("a failed test mail says so and where to look", async () => {
    sql(
      "INSERT INTO mail_outbox (\"to\", subject, text, html, kind, status, attempts, last_error) VALUES ('chefin@agentur.de', 'Test', 't', 'h', 'setup-test-mail', 'failed', 5, 'Invalid login: 535 Authentication failed')",
    );
    const red = (await check()).item("testMail");
    expect(red.ok).toBe(false);
    expect(red.message).toContain("konnte nicht versendet werden");
    expect(red.message).toContain("535 Authentication failed");
    expect(red.href).toBe("/admin/settings/outbox");
  });

  it("the booking success keeps the spec's promise of a confirmation mail", async () => {
    const cookie = await server.adminCookie();
    const slots = await (
      await server.fetch("/api/calcom/available-slots", {
        method: "POST",
        json: { startDate: nextBookableWeekday(), day: nextBookableWeekday() },
      })
    ).json();
    const html = await (
      await server.fetch("/termin?demo=1", {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ startTime: slots.slots[0].time }).toString(),
      })
    ).text();
    expect(html).toContain("Du erhältst eine Bestätigungs-E-Mail mit allen Details.");
    expect(html).not.toContain("können wir gerade nicht senden");
  });
});

describe("My account with SMTP", () => {
  it("a new address answers 202 and applies only when the mailed link is confirmed; the old address is told", async () => {
    const colleague = await insertAdmin("kollege", { email: "kollege@agentur.de" });
    const own = await apiLogin(server, colleague.username, colleague.password);
    const res = await server.fetch("/api/admin/account", {
      method: "PATCH",
      token: own,
      json: { email: "kollege.neu@agentur.de", currentPassword: colleague.password },
    });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, pendingEmail: "kollege.neu@agentur.de" });
    expect(body.admin.email).toBe("kollege@agentur.de");
    expect(body.message).toContain("Bestätigungslink an kollege.neu@agentur.de");
    // Nothing changed yet.
    const before = await (await server.fetch("/api/admin/account", { token: own })).json();
    expect(before.admin.email).toBe("kollege@agentur.de");
    await server.drainOutbox();
    const confirm = await inbox.waitFor("kollege.neu@agentur.de", /bestätigen/);
    const told = await inbox.waitFor("kollege@agentur.de", /angefordert/);
    expect(told.text).toContain("kollege.neu@agentur.de");
    const confirmToken = linkToken(confirm.text, "/admin/account/email-confirm");
    // The link's token never sits readable in the outbox (sealed until sent, masked after).
    const stored = sql<{ text: string }>(
      "SELECT text FROM mail_outbox WHERE kind = 'account-email-confirm'",
    );
    expect(stored).toHaveLength(1);
    expect(stored[0]?.text).not.toContain(confirmToken);

    // Opening the link changes nothing (mail scanners open links); the button does.
    const page = await server.fetch(
      `/admin/account/email-confirm?token=${encodeURIComponent(confirmToken)}`,
    );
    expect(page.status).toBe(200);
    const pageHtml = await page.text();
    expect(pageHtml).toContain("kollege.neu@agentur.de");
    expect(pageHtml).toContain("E-Mail-Adresse bestätigen");
    expect(
      (await (await server.fetch("/api/admin/account", { token: own })).json()).admin.email,
    ).toBe("kollege@agentur.de");
    const done = await server.fetch("/admin/account/email-confirm", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: confirmToken }).toString(),
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/admin/account");
    expect(
      (await (await server.fetch("/api/admin/account", { token: own })).json()).admin.email,
    ).toBe("kollege.neu@agentur.de");
    await server.drainOutbox();
    await inbox.waitFor("kollege@agentur.de", /wurde geändert/);
    const entries = sql<{ actor_name: string; details: string }>(
      "SELECT actor_name, details FROM audit_log WHERE action = 'account' ORDER BY id",
    );
    expect(entries.at(-1)?.actor_name).toBe("kollege");
    expect(JSON.parse(entries.at(-1)?.details ?? "{}")).toEqual({
      changed: "email",
      confirmed: true,
    });
    // Used once: the link dies with the address it was made for.
    const again = await server.fetch(
      `/admin/account/email-confirm?token=${encodeURIComponent(confirmToken)}`,
    );
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("ungültig oder wurde bereits verwendet");
    const replay = await server.fetch("/admin/account/email-confirm", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: confirmToken }).toString(),
    });
    expect(replay.status).toBe(400);
  });

  it("an expired, forged or missing link is refused", async () => {
    const admin = sql<{ id: number; email: string }>(
      "SELECT id, email FROM admins WHERE username = 'admin'",
    )[0] as { id: number; email: string };
    const expired = emailChangeToken(admin, "spaet@agentur.de", Date.now() - 25 * 3600_000);
    const res = await server.fetch(`/admin/account/email-confirm?token=${expired}`);
    expect(res.status).toBe(410);
    expect(await res.text()).toContain("abgelaufen");
    const valid = emailChangeToken(admin, "fremd@agentur.de");
    const [payload, signature] = valid.split(".");
    const forgedPayload = Buffer.from(`${admin.id}.9999999999.boese@agentur.de`).toString(
      "base64url",
    );
    for (const bad of [`${forgedPayload}.${signature}`, `${payload}.AAAA`, "", "x.y.z"]) {
      const answer = await server.fetch(
        `/admin/account/email-confirm?token=${encodeURIComponent(bad)}`,
      );
      expect(answer.status, bad).toBe(400);
    }
  });

  it("an address another admin has is refused (409); a rename applies at once", async () => {
    const taken = await server.fetch("/api/admin/account", {
      method: "PATCH",
      token,
      json: { email: "KOLLEGE.NEU@agentur.de" },
    });
    expect(taken.status).toBe(409);
    expect((await taken.json()).fieldErrors.email[0]).toBe(
      "Für diese E-Mail-Adresse existiert bereits ein Admin-Konto.",
    );
    const renamed = await server.fetch("/api/admin/account", {
      method: "PATCH",
      token,
      json: { username: "Chefin" },
    });
    expect(renamed.status).toBe(200);
    expect((await renamed.json()).admin.username).toBe("Chefin");
    const entries = sql<{ details: string }>(
      "SELECT details FROM audit_log WHERE action = 'account' AND actor_name = 'admin'",
    );
    expect(entries.map((e) => JSON.parse(e.details))).toContainEqual({ changed: "username" });
  });
});
