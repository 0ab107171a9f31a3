import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { insertAdmin, testDb } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";

// ADRs 226, 230, 231 without SMTP and without ANTHROPIC_API_KEY (vitest.setup.ts removes
// both). TRUST_PROXY=fly lets a test speak from several client addresses (Fly-Client-IP).
let server: TestServer;
let token: string;
let cookie: string;
beforeAll(async () => {
  server = await startTestServer({
    LOGIN_RATE_LIMIT: "3/15m",
    TRUST_PROXY: "fly",
    APP_URL: "http://portal.test",
  });
  token = await server.adminToken();
  cookie = await server.adminCookie();
});
afterAll(async () => {
  await server.close();
  for (const key of ["LOGIN_RATE_LIMIT", "TRUST_PROXY", "APP_URL"]) delete process.env[key];
});

const from = (ip: string) => ({ "fly-client-ip": ip });
const login = (ip: string, username: string, password: string) =>
  server.fetch("/api/admin/auth/login", {
    method: "POST",
    headers: from(ip),
    json: { username, password },
  });

/** n wrong passwords at once (as a script or an impatient double click would send them). */
async function failInParallel(ip: string, username: string, n: number) {
  const answers = await Promise.all(
    Array.from({ length: n }, (_, i) => login(ip, username, `falsch-${i}`)),
  );
  return answers.map((a) => a.status).sort();
}

/** A one-time reset link handed out on /admin/users (no SMTP here); returns its token. */
async function resetToken(adminId: number) {
  const html = await (
    await server.fetch("/admin/users", {
      method: "POST",
      headers: { cookie },
      // With the acting admin's step-up (ADR 315).
      body: new URLSearchParams({
        intent: "reset-link",
        id: String(adminId),
        "stepUp.password": "admin-passwort",
      }),
    })
  ).text();
  const link = html.match(/http:\/\/portal\.test\/admin\/reset-password\?token=[^"<\s]+/)?.[0];
  if (!link) throw new Error("no reset link on the page");
  return new URL(link.replaceAll("&amp;", "&")).searchParams.get("token") as string;
}

describe("a successful reset or password change lifts the login lock", () => {
  it("parallel failed logins lock the account (Sie-message); a reset lifts it", async () => {
    const rita = await insertAdmin("rita-lock");
    expect(await failInParallel("203.0.113.7", rita.username, 5)).toEqual([
      401, 401, 401, 429, 429,
    ]);
    const locked = await login("203.0.113.7", rita.username, rita.password);
    expect(locked.status).toBe(429);
    const { error } = await locked.json();
    expect(error).toMatch(/^Zu viele Versuche\. Bitte warten Sie 15 Minuten und versuchen Sie es/);
    expect(error).not.toMatch(/\bwarte\b|versuche es/);
    // An attacker's address elsewhere has also used up its own budget on this account.
    await failInParallel("198.51.100.9", rita.username, 3);

    // The reset form (no JS) from the address of the locked browser.
    const resetPage = await server.fetch("/admin/reset-password", {
      method: "POST",
      headers: { ...from("203.0.113.7"), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        token: await resetToken(rita.id),
        newPassword: "ganz-neues-passwort",
        confirmPassword: "ganz-neues-passwort",
      }).toString(),
    });
    expect(resetPage.status).toBe(200);
    expect(await resetPage.text()).toContain("Ihr Passwort wurde erfolgreich zurückgesetzt");

    const after = await login("203.0.113.7", rita.username, "ganz-neues-passwort");
    expect(after.status).toBe(200);
    // The account's counters are gone from every address, but the other address's own
    // per-address budget stays used up: a reset never frees an attacker's address.
    const elsewhere = await login("198.51.100.9", rita.username, "ganz-neues-passwort");
    expect(elsewhere.status).toBe(429);
    const third = await login("192.0.2.44", rita.username, "ganz-neues-passwort");
    expect(third.status).toBe(200);
  });

  it("the reset API lifts it too", async () => {
    const udo = await insertAdmin("udo-lock");
    await failInParallel("203.0.113.20", udo.username, 4);
    expect((await login("203.0.113.20", udo.username, udo.password)).status).toBe(429);
    const reset = await server.fetch("/api/admin/auth/reset-password", {
      method: "POST",
      headers: from("203.0.113.20"),
      json: { token: await resetToken(udo.id), newPassword: "udo-neues-passwort" },
    });
    expect(reset.status).toBe(200);
    expect((await login("203.0.113.20", udo.username, "udo-neues-passwort")).status).toBe(200);
  });

  it("a password change (page and API) lifts it", async () => {
    const paul = await insertAdmin("paul-lock");
    const session = await (await login("203.0.113.30", paul.username, paul.password)).json();
    await failInParallel("203.0.113.30", paul.username, 4);
    expect((await login("203.0.113.30", paul.username, paul.password)).status).toBe(429);
    const changed = await server.fetch("/api/admin/auth/change-password", {
      method: "POST",
      headers: from("203.0.113.30"),
      token: session.token,
      json: { oldPassword: paul.password, newPassword: "paul-neues-passwort" },
    });
    expect(changed.status).toBe(200);
    const again = await login("203.0.113.30", paul.username, "paul-neues-passwort");
    expect(again.status).toBe(200);

    // The HTML form of /admin/change-password (no JS), from a session of the login form.
    const pageLogin = await server.fetch("/admin/login", {
      method: "POST",
      headers: { ...from("203.0.113.31"), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: paul.username, password: "paul-neues-passwort" }),
    });
    const pageCookie = (pageLogin.headers.get("set-cookie") ?? "").split(";")[0];
    expect(pageCookie).toMatch(/=/);
    await failInParallel("203.0.113.31", paul.username, 4);
    expect((await login("203.0.113.31", paul.username, "paul-neues-passwort")).status).toBe(429);
    const form = await server.fetch("/admin/change-password", {
      method: "POST",
      headers: {
        ...from("203.0.113.31"),
        "content-type": "application/x-www-form-urlencoded",
        cookie: pageCookie,
      },
      body: new URLSearchParams({
        oldPassword: "paul-neues-passwort",
        newPassword: "paul-drittes-passwort",
        confirmPassword: "paul-drittes-passwort",
      }).toString(),
    });
    expect(form.status).toBe(200);
    expect(await form.text()).toContain("Passwort erfolgreich geändert!");
    expect((await login("203.0.113.31", paul.username, "paul-drittes-passwort")).status).toBe(200);
  });

  it("forgot-password's limit speaks 'Sie' as well", async () => {
    const answers: Response[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await server.fetch("/api/admin/auth/forgot-password", {
        method: "POST",
        headers: from("203.0.113.40"),
        json: { email: `x${i}@example.com` },
      });
      answers.push(answer);
    }
    const last = answers[3] as Response;
    expect(last.status).toBe(429);
    expect((await last.json()).error).toMatch(/Bitte warten Sie \d+ Minuten? und versuchen Sie/);
  });
});

type OutboxRow = { to: string; subject: string; text: string; kind: string };
const outbox = (kind: string) =>
  testDb()
    .prepare("SELECT `to`, subject, text, kind FROM mail_outbox WHERE kind = ? ORDER BY id")
    .all(kind) as OutboxRow[];

describe("a registration from an invitation", () => {
  it("tells every active admin, counts in the badge, and the invitee reads one clear message", async () => {
    const colleague = await insertAdmin("kollegin-aktiv");
    const inactive = await insertAdmin("ehemalig", { active: false });
    // A deactivated colleague who had logged in before awaits nothing.
    testDb().prepare("UPDATE admins SET last_login = ? WHERE id = ?").run(Date.now(), inactive.id);
    const badge = async () => {
      const html = await (await server.fetch("/admin/users", { headers: { cookie } })).text();
      return html.match(/data-testid="awaiting-activation-badge"[^>]*>(\d+)</)?.[1] ?? null;
    };
    expect(await badge()).toBeNull();

    const invited = await (
      await server.fetch("/api/admin/invite", {
        method: "POST",
        token,
        json: { email: "neue.kollegin@example.com" },
      })
    ).json();
    const registered = await server.fetch("/api/admin/register", {
      method: "POST",
      json: {
        invitationToken: invited.invitationToken,
        username: "neue-kollegin",
        password: "Geheim-Wolke-482",
      },
    });
    expect(registered.status).toBe(201);
    const { message } = await registered.json();
    // Without SMTP nobody was mailed: it says so, and who can activate the account.
    expect(message).toBe(
      "Registrierung erfolgreich! Ihr Konto wartet auf die Freischaltung. Freischalten kann es jeder aktive Admin unter „Benutzer“, zum Beispiel admin (Ihre Einladung kam von diesem Konto). Eine E-Mail an die Admins wurde nicht verschickt, weil auf diesem Server kein E-Mail-Versand eingerichtet ist. Bitte sagen Sie admin selbst Bescheid, dass Ihr Konto wartet. Sobald Ihr Konto freigeschaltet ist, können Sie sich anmelden.",
    );
    expect(message).not.toContain("wurden benachrichtigt");

    // One mail per active admin, none to the deactivated one or the invitee.
    const notices = outbox("registration-pending");
    const active = testDb()
      .prepare("SELECT email FROM admins WHERE is_active = 1 ORDER BY id")
      .all() as { email: string }[];
    expect(notices.map((m) => m.to).sort()).toEqual(active.map((a) => a.email).sort());
    expect(notices.map((m) => m.to)).toContain(colleague.email);
    expect(notices.map((m) => m.to)).not.toContain(inactive.email);
    expect(notices[0]?.subject).toBe("Neue Registrierung: neue-kollegin wartet auf Freischaltung");
    expect(notices[0]?.text).toContain("neue-kollegin (neue.kollegin@example.com)");
    expect(notices[0]?.text).toContain("die Einladung von admin");
    expect(notices[0]?.text).toContain("http://portal.test/admin/users");

    // The badge on "Benutzer" and the page's notice count the account.
    expect(await badge()).toBe("1");
    const users = await (await server.fetch("/admin/users", { headers: { cookie } })).text();
    expect(users).toContain("1 Konto wartet auf Freischaltung");
    const dashboard = await (
      await server.fetch("/admin/dashboard", { headers: { cookie } })
    ).text();
    expect(dashboard).toMatch(/data-testid="awaiting-activation-badge"[^>]*>1</);

    // Her login before the activation: one message saying what is going on.
    const early = await login("203.0.113.50", "neue-kollegin", "Geheim-Wolke-482");
    expect(early.status).toBe(403);
    expect((await early.json()).error).toBe(
      "Ihr Konto wartet noch auf die Freischaltung durch einen aktiven Admin (unter „Benutzer“). Eine E-Mail an die Admins wurde nicht verschickt, weil auf diesem Server kein E-Mail-Versand eingerichtet ist. Bitte sagen Sie einem Admin selbst Bescheid, dass Ihr Konto wartet. Sobald Ihr Konto freigeschaltet ist, können Sie sich anmelden.",
    );
    // The login page she is led to shows the notice alone, and a failed attempt replaces it.
    const notice = await (await server.fetch("/admin/login?notice=registered")).text();
    expect(notice).toContain("Ihr Konto wartet auf die Freischaltung durch einen aktiven Admin");
    expect(notice).not.toContain("wurden per E-Mail benachrichtigt");
    const attempt = await (
      await server.fetch("/admin/login?notice=registered", {
        method: "POST",
        headers: { ...from("203.0.113.51"), "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          username: "neue-kollegin",
          password: "Geheim-Wolke-482",
        }).toString(),
      })
    ).text();
    // What is rendered (the hydration data after it may still hold the loader's notice).
    const shown = attempt.replace(/<script[\s\S]*?<\/script>/g, "");
    expect(shown).toContain("Ihr Konto wartet noch auf die Freischaltung");
    expect(shown).not.toContain("Ihr Konto wartet auf die Freischaltung durch");

    // Activation: she is told, the badge is gone.
    const id = (
      testDb().prepare("SELECT id FROM admins WHERE username = ?").get("neue-kollegin") as {
        id: number;
      }
    ).id;
    const toggled = await server.fetch(`/api/admin/users/${id}/toggle-status`, {
      method: "POST",
      token,
      // Power over another account needs the step-up (ADR 315).
      json: { activate: true, stepUp: { password: "admin-passwort" } },
    });
    expect(toggled.status).toBe(200);
    const activated = outbox("account-activated").filter(
      (m) => m.to === "neue.kollegin@example.com",
    );
    expect(activated).toHaveLength(1);
    expect(activated[0]?.subject).toBe("Ihr Admin-Zugang wurde freigeschaltet");
    expect(await badge()).toBeNull();
    expect((await login("203.0.113.52", "neue-kollegin", "Geheim-Wolke-482")).status).toBe(200);
  });

  it("activated, then deactivated before a first login: deactivated, not awaiting activation (ADR 358)", async () => {
    const html = async () => (await server.fetch("/admin/users", { headers: { cookie } })).text();
    const badge = async () =>
      (await html()).match(/data-testid="awaiting-activation-badge"[^>]*>(\d+)</)?.[1] ?? null;
    const stats = async () =>
      (
        (await (await server.fetch("/api/admin/stats", { token })).json()) as {
          stats: { admins: number; activeAdmins: number; awaitingActivation: number };
        }
      ).stats;
    const toggle = async (id: number, activate: boolean) => {
      const res = await server.fetch(`/api/admin/users/${id}/toggle-status`, {
        method: "POST",
        token,
        json: { activate, stepUp: { password: "admin-passwort" } },
      });
      expect(res.status).toBe(200);
    };
    expect(await badge()).toBeNull();

    const invited = await (
      await server.fetch("/api/admin/invite", {
        method: "POST",
        token,
        json: { email: "kurz.dabei@example.com" },
      })
    ).json();
    const registered = await server.fetch("/api/admin/register", {
      method: "POST",
      json: {
        invitationToken: invited.invitationToken,
        username: "kurz-dabei",
        password: "Geheim-Nebel-913",
      },
    });
    expect(registered.status).toBe(201);
    expect(await badge()).toBe("1");
    const id = (
      testDb().prepare("SELECT id FROM admins WHERE username = ?").get("kurz-dabei") as {
        id: number;
      }
    ).id;

    // Activated, and switched off again before she ever logged in.
    await toggle(id, true);
    await toggle(id, false);
    expect(
      outbox("account-activated").filter((m) => m.to === "kurz.dabei@example.com"),
    ).toHaveLength(1);

    // Not counted: no badge, no notice, no "Wartet auf Freischaltung" in her row, not in the figures.
    expect(await badge()).toBeNull();
    const page = await html();
    expect(page).not.toContain("awaiting-activation-notice");
    const row = page.match(/data-testid="admin-row-kurz-dabei"[\s\S]*?<\/tr>/)?.[0] ?? "";
    expect(row).toContain("Inaktiv");
    expect(row).not.toContain("Wartet auf Freischaltung");
    const figures = await stats();
    expect(figures.awaitingActivation).toBe(0);
    expect(figures.admins - figures.activeAdmins).toBeGreaterThan(0);

    // Her login hears that the account is off, not that it waits for its activation.
    const refused = await login("203.0.113.60", "kurz-dabei", "Geheim-Nebel-913");
    expect(refused.status).toBe(403);
    const { error } = await refused.json();
    expect(error).toBe("Ihr Konto ist deaktiviert. Bitte wenden Sie sich an einen Administrator.");
    expect(error).not.toContain("wartet");

    // Switched on again: "wieder aktiviert", not a second "freigeschaltet".
    await toggle(id, true);
    expect(
      outbox("account-activated").filter((m) => m.to === "kurz.dabei@example.com"),
    ).toHaveLength(1);
    expect(
      outbox("account-reactivated").filter((m) => m.to === "kurz.dabei@example.com"),
    ).toHaveLength(1);
  });
});

describe("AI without a key", () => {
  it("the coding prompt comes from the German template: status label, German date, no e-mail or phone", async () => {
    const createdAt = new Date("2026-11-22T09:15:00Z");
    const row = db()
      .insert(requests)
      .values({
        name: "Anna Müller",
        email: "anna.mueller@example.com",
        phone: "+49 30 1234 5678",
        companyDescription: "Bäckerei mit drei Filialen in Berlin-Mitte",
        description: "Wir brauchen eine App für Vorbestellungen von Brötchen.",
        status: "In Progress",
        createdAt,
      })
      .returning()
      .get();
    const res = await server.fetch(`/api/admin/requests/${row.id}/cursor-prompt`, {
      method: "POST",
      token,
      json: {},
    });
    expect(res.status).toBe(200);
    const { prompt } = (await res.json()) as { prompt: string };
    expect(prompt).toContain("- Status: In Bearbeitung");
    expect(prompt).toContain("- Anfrage vom: 22.11.2026, 10:15 Uhr");
    expect(prompt).toContain("Wir brauchen eine App für Vorbestellungen von Brötchen.");
    expect(prompt).not.toContain("anna.mueller@example.com");
    expect(prompt).not.toMatch(/E-Mail|Telefon|1234 5678/);
    expect(prompt).not.toMatch(
      /In Progress|\bTask\b|Customer|Description|Preparation|Approach|You are/,
    );
    expect(prompt).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
  });

  it("automatic preparation answers 503 in German without naming the variable (API and page)", async () => {
    const row = db()
      .insert(requests)
      .values({
        name: "Bert",
        email: "bert@example.com",
        phone: "+49 40 555",
        companyDescription: "Tischlerei in Hamburg mit zwölf Leuten",
        description: "Ein Auftragsbuch für die Werkstatt.",
      })
      .returning()
      .get();
    const res = await server.fetch(`/api/admin/requests/${row.id}/automated-preparation`, {
      method: "POST",
      token,
      json: {},
    });
    expect(res.status).toBe(503);
    const { error } = await res.json();
    expect(error).toMatch(/^KI ist nicht eingerichtet – siehe Einrichtung/);
    expect(error).not.toContain("ANTHROPIC_API_KEY");

    // The request page renders the button disabled, with the explanation and its link.
    const html = await (
      await server.fetch(`/admin/requests?requestId=${row.id}`, { headers: { cookie } })
    ).text();
    const button = html.match(/<button[^>]*>Automatisch vorbereiten<\/button>/)?.[0] ?? "";
    expect(button).toContain("disabled");
    expect(button).toMatch(/aria-describedby="[^"]+-no-ai"/);
    expect(html).toMatch(
      /KI ist nicht eingerichtet – siehe(<!-- -->)?\s*(<!-- -->)?<a[^>]*href="\/admin"/,
    );
    // The prompt generator stays enabled.
    const promptButton =
      html.match(/<button[^>]*>Prompt für KI-Coding-Assistent erstellen<\/button>/)?.[0] ?? "";
    expect(promptButton).not.toBe("");
    expect(promptButton).not.toContain("disabled");
  });
});
