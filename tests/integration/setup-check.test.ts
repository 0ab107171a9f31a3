// The go-live check (ADR 225) on a fresh install with nothing configured: every required item is
// red with its German instruction, and each turns green the way its message says. Also "My account"
// without SMTP (a new address applies at once, audited) and the booking success without SMTP.
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstBookableDay } from "~/lib/booking-calendar";
import { SETUP_CHECK_IDS, type SetupCheckItem } from "~/lib/setup-check";
import { apiLogin, insertAdmin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

const FIRST_EMAIL = "admin@localhost.localdomain";
let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer({ SESSION_SECRET: undefined, ADMIN_EMAIL: FIRST_EMAIL });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
  process.env.SESSION_SECRET = "test-secret";
  process.env.ADMIN_EMAIL = "admin@example.com";
});

async function check(as = token) {
  const res = await server.fetch("/api/admin/setup-check", { token: as });
  expect(res.status).toBe(200);
  expect(res.headers.get("cache-control")).toContain("no-store");
  const body = (await res.json()) as { ready: boolean; items: SetupCheckItem[] };
  const item = (id: string) => body.items.find((i) => i.id === id) as SetupCheckItem;
  return { ...body, item };
}

const backupsDir = () => path.join(path.dirname(process.env.DATABASE_PATH as string), "backups");

function outboxRows(kind: string) {
  const db = testDb();
  try {
    return db
      .prepare('SELECT "to", subject, status FROM mail_outbox WHERE kind = ? ORDER BY id')
      .all(kind) as { to: string; subject: string; status: string }[];
  } finally {
    db.close();
  }
}

describe("GET /api/admin/setup-check on a fresh install", () => {
  it("needs an admin", async () => {
    expect((await server.fetch("/api/admin/setup-check")).status).toBe(401);
    expect((await server.fetch("/api/admin/setup-check", { method: "POST", token })).status).toBe(
      405,
    );
  });

  it("lists every item in order, each with a German message and a link; not ready", async () => {
    const { ready, items } = await check();
    expect(ready).toBe(false);
    expect(items.map((i) => i.id)).toEqual([...SETUP_CHECK_IDS]);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(["href", "id", "message", "ok", "optional"]);
      expect(item.message).toMatch(/[äöüß]|Sie /);
      expect(item.message).not.toMatch(/\bdu\b|\bdein/i);
      expect(item.href).toMatch(/^\/admin\//);
    }
    expect(items.filter((i) => i.optional).map((i) => i.id)).toEqual([
      "notifications",
      "ai",
      "accessibility",
    ]);
  });

  it("notifications: red (optional) while no one is told of a new lead, green once someone is", async () => {
    const { item } = await check();
    expect(item("notifications")).toMatchObject({
      ok: false,
      optional: true,
      href: "/admin/settings#notifications",
    });
    expect(item("notifications").message).toContain("Einstellungen → E-Mail-Benachrichtigungen");
    const on = (externalEmails: string[]) =>
      server.fetch("/api/configuration", {
        method: "PATCH",
        token,
        json: { emailNotifications: { enabled: true, adminEmails: [], externalEmails } },
      });
    // Switched on with nobody to tell is still red.
    expect((await on([])).status).toBe(200);
    expect((await check()).item("notifications").ok).toBe(false);
    expect((await on(["team@agentur.de"])).status).toBe(200);
    const after = (await check()).item("notifications");
    expect(after.ok).toBe(true);
    expect(after.message).toBe("Neue Anfragen werden per E-Mail an 1 Adresse gemeldet.");
    expect((await on([])).status).toBe(200);
  });

  it("smtp, appUrlHttps, legalUrls, sessionSecret and ai are red with what to set", async () => {
    const { item } = await check();
    expect(item("smtp")).toMatchObject({ ok: false, optional: false });
    expect(item("smtp").message).toContain("SMTP_URL");
    expect(item("appUrlHttps").ok).toBe(false);
    expect(item("appUrlHttps").message).toContain("APP_URL");
    expect(item("legalUrls").ok).toBe(false);
    expect(item("legalUrls").message).toContain(
      "PRIVACY_URL (Datenschutzerklärung) und IMPRINT_URL",
    );
    expect(item("legalUrls").message).toContain("example.com");
    expect(item("sessionSecret").ok).toBe(false);
    expect(item("sessionSecret").message).toContain("SESSION_SECRET");
    expect(item("ai")).toMatchObject({ ok: false, optional: true });
    expect(item("ai").message).toContain("ANTHROPIC_API_KEY");
    expect(item("appUrlHttps").href).toBe("/admin/dashboard#umgebungsvariablen");
  });

  it("testMail: red without SMTP; the test mail answers 202 and waits in the outbox", async () => {
    expect((await check()).item("testMail")).toMatchObject({ ok: false });
    expect((await check()).item("testMail").message).toContain("zuerst SMTP");
    const refused = await server.fetch("/api/admin/setup-check/test-mail", { method: "POST" });
    expect(refused.status).toBe(401);
    expect((await server.fetch("/api/admin/setup-check/test-mail", { token })).status).toBe(405);
    const res = await server.fetch("/api/admin/setup-check/test-mail", { method: "POST", token });
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, mailed: false });
    expect(body.message).toContain("Postausgang");
    expect(outboxRows("setup-test-mail")).toEqual([
      { to: FIRST_EMAIL, subject: "Test-E-Mail von Anfrage-Portal", status: "pending" },
    ]);
    await server.drainOutbox();
    expect((await check()).item("testMail").ok).toBe(false);
  });

  it("test mails are limited per admin (5 an hour, then 429 by API and an error toast by form)", async () => {
    const sender = await insertAdmin("testmail-flut", { email: "flut@agentur.de" });
    const own = await apiLogin(server, sender.username, sender.password);
    const send = () =>
      server.fetch("/api/admin/setup-check/test-mail", { method: "POST", token: own });
    const answers = await Promise.all(Array.from({ length: 8 }, send));
    expect(answers.map((a) => a.status).sort()).toEqual([202, 202, 202, 202, 202, 429, 429, 429]);
    const refused = answers.find((a) => a.status === 429)!;
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await refused.json()).error).toContain("Bitte warten Sie");
    expect(outboxRows("setup-test-mail").filter((m) => m.to === "flut@agentur.de")).toHaveLength(5);
    // The dashboard's form shares the limit.
    const cookie = await server.adminCookie(sender.username, sender.password);
    const form = await server.fetch("/admin/dashboard", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=test-mail",
    });
    expect(form.status).toBe(302);
    expect(outboxRows("setup-test-mail").filter((m) => m.to === "flut@agentur.de")).toHaveLength(5);
    // Another admin keeps their own budget.
    expect(
      (await server.fetch("/api/admin/setup-check/test-mail", { method: "POST", token })).status,
    ).toBe(202);
  });

  it("backups: red without a backup or replica, green with a backup younger than 48 h", async () => {
    const red = (await check()).item("backups");
    expect(red.ok).toBe(false);
    expect(red.message).toContain("LITESTREAM_REPLICA_URL");
    expect(red.message).toContain("npm run backup");
    mkdirSync(backupsDir(), { recursive: true });
    const file = path.join(backupsDir(), "2026-01-01T03-00-00-000Z.sqlite");
    writeFileSync(file, "");
    const old = new Date(Date.now() - 49 * 3600_000);
    utimesSync(file, old, old);
    expect((await check()).item("backups").ok).toBe(false);
    expect((await check()).item("backups").message).toContain("letzte Sicherung ist vom");
    // Other files in the folder are not backups.
    writeFileSync(path.join(backupsDir(), "notiz.txt"), "");
    expect((await check()).item("backups").ok).toBe(false);
    const fresh = new Date(Date.now() - 47 * 3600_000);
    utimesSync(file, fresh, fresh);
    expect((await check()).item("backups").ok).toBe(true);
  });

  it("adminEmails: red while an active admin has a local address; each admin is led where to fix it", async () => {
    const other = await insertAdmin("kollegin", { email: "kollegin@agentur.de" });
    const otherToken = await apiLogin(server, other.username, other.password);
    const mine = (await check()).item("adminEmails");
    expect(mine.ok).toBe(false);
    expect(mine.message).toContain("Betroffen: admin.");
    expect(mine.href).toBe("/admin/account");
    expect((await check(otherToken)).item("adminEmails").href).toBe("/admin/users");
    // An inactive admin does not count.
    await insertAdmin("ruhend", { email: "ruhend@localhost", active: false });
    expect((await check()).item("adminEmails").message).not.toContain("ruhend");
  });
});

describe("My account without SMTP", () => {
  it("GET answers the own account", async () => {
    const res = await server.fetch("/api/admin/account", { token });
    expect(res.status).toBe(200);
    expect((await res.json()).admin).toMatchObject({ username: "admin", email: FIRST_EMAIL });
    expect((await server.fetch("/api/admin/account")).status).toBe(401);
    expect((await server.fetch("/api/admin/account", { method: "POST", token })).status).toBe(405);
  });

  it("a new address needs the current password: missing → 400, wrong → 403, nothing changes", async () => {
    for (const [json, status, message] of [
      [{ email: "chefin@agentur.de" }, 400, "Bitte geben Sie Ihr aktuelles Passwort ein"],
      [
        { email: "chefin@agentur.de", currentPassword: "falsch" },
        403,
        "Das aktuelle Passwort ist falsch.",
      ],
    ] as const) {
      const res = await server.fetch("/api/admin/account", { method: "PATCH", token, json });
      expect(res.status).toBe(status);
      expect((await res.json()).fieldErrors.currentPassword[0]).toContain(message);
    }
    const now = await (await server.fetch("/api/admin/account", { token })).json();
    expect(now.admin.email).toBe(FIRST_EMAIL);
    expect(outboxRows("account-email-notice")).toEqual([]);
  });

  it("a new address applies at once (200, audited, the old address told) and adminEmails turns green", async () => {
    const res = await server.fetch("/api/admin/account", {
      method: "PATCH",
      token,
      json: { email: "Chefin@Agentur.de", currentPassword: "admin-passwort" },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.admin.email).toBe("chefin@agentur.de");
    expect(body.pendingEmail).toBeUndefined();
    expect(outboxRows("account-email-notice")).toEqual([
      { to: FIRST_EMAIL, subject: "Ihre E-Mail-Adresse wurde geändert", status: "pending" },
    ]);
    expect(outboxRows("account-email-confirm")).toEqual([]);
    const db = testDb();
    try {
      const entry = db
        .prepare("SELECT actor_name, target, details FROM audit_log WHERE action = 'account'")
        .get() as { actor_name: string; target: string; details: string };
      expect(entry).toMatchObject({ actor_name: "admin", target: "Eigenes Konto" });
      expect(JSON.parse(entry.details)).toEqual({ changed: "email", confirmed: false });
      // No address in the audit log.
      expect(entry.details).not.toContain("@");
    } finally {
      db.close();
    }
    const { item } = await check();
    expect(item("adminEmails")).toMatchObject({ ok: true });
  });

  it("renames: 200 and audited; a taken or malformed name is refused like at registration", async () => {
    const taken = await server.fetch("/api/admin/account", {
      method: "PATCH",
      token,
      json: { username: "KOLLEGIN" },
    });
    expect(taken.status).toBe(409);
    expect((await taken.json()).fieldErrors.username[0]).toBe(
      "Dieser Benutzername ist bereits vergeben.",
    );
    const bad = await server.fetch("/api/admin/account", {
      method: "PATCH",
      token,
      json: { username: "a b", email: "kein-at" },
    });
    expect(bad.status).toBe(400);
    const fieldErrors = (await bad.json()).fieldErrors;
    expect(fieldErrors.username[0]).toContain("nur Buchstaben");
    expect(fieldErrors.email[0]).toBe("Bitte geben Sie eine gültige E-Mail-Adresse ein!");
    const ok = await server.fetch("/api/admin/account", {
      method: "PATCH",
      token,
      json: { username: "chefin" },
    });
    expect(ok.status).toBe(200);
    expect((await ok.json()).admin.username).toBe("chefin");
    const db = testDb();
    try {
      const details = db
        .prepare("SELECT details FROM audit_log WHERE action = 'account' ORDER BY id DESC")
        .pluck()
        .get() as string;
      expect(JSON.parse(details)).toEqual({ changed: "username" });
    } finally {
      db.close();
    }
    // The session stays; the login takes the new name.
    expect((await server.fetch("/api/admin/account", { token })).status).toBe(200);
    await apiLogin(server, "chefin", "admin-passwort");
  });

  it("the account page's form saves without JavaScript", async () => {
    const cookie = await server.adminCookie("chefin", "admin-passwort");
    const page = await server.fetch("/admin/account", { headers: { cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Account-Einstellungen");
    expect(html).toContain('value="chefin"');
    expect(html).toContain('href="/admin/change-password"');
    const saved = await server.fetch("/admin/account", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "chefin2", email: "chefin@agentur.de" }).toString(),
    });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Ihre Änderungen wurden gespeichert.");
    const refused = await server.fetch("/admin/account", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "kollegin", email: "chefin@agentur.de" }).toString(),
    });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("Dieser Benutzername ist bereits vergeben.");
  });
});

describe("the dashboard and the booking success without SMTP", () => {
  it("the dashboard shows the go-live check with its messages, links and the test-mail button", async () => {
    const cookie = await server.adminCookie("chefin2", "admin-passwort");
    const html = await (await server.fetch("/admin/dashboard", { headers: { cookie } })).text();
    expect(html).toContain("Go-live-Check");
    expect(html).toContain("Setzen Sie APP_URL");
    expect(html).toContain('href="/admin/dashboard#umgebungsvariablen"');
    expect(html).toContain("Test-E-Mail senden");
    const sent = await server.fetch("/admin/dashboard", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: "intent=test-mail",
    });
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/admin/dashboard");
    expect(outboxRows("setup-test-mail").at(-1)?.to).toBe("chefin@agentur.de");
  });

  it("the booking success does not promise a confirmation mail", async () => {
    const cookie = await server.adminCookie("chefin2", "admin-passwort");
    let day = firstBookableDay(1);
    while ([0, 6].includes(new Date(`${day}T12:00:00Z`).getUTCDay()))
      day = new Date(new Date(`${day}T12:00:00Z`).getTime() + 86400_000).toISOString().slice(0, 10);
    const slots = await (
      await server.fetch("/api/calcom/available-slots", {
        method: "POST",
        json: { startDate: day, day },
      })
    ).json();
    const res = await server.fetch("/termin?demo=1", {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ startTime: slots.slots[0].time }).toString(),
    });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain("Termin erfolgreich gebucht!");
    expect(html).toContain(
      "Dein Termin ist gebucht. Eine Bestätigung per E-Mail können wir gerade nicht senden.",
    );
    expect(html).not.toContain("Du erhältst eine Bestätigungs-E-Mail");
  });
});
