import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandingDefaults } from "~/lib/branding";
import { startTestServer, type TestServer } from "./server";
import { type SettingsConfig, settingsFormPost } from "./settings-post";

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await server.adminToken();
});
afterAll(() => server.close());

describe("configuration", () => {
  it("round-trips with clamping; visitors see only the public part", async () => {
    const admin = await (await server.fetch("/api/configuration", { token })).json();
    expect(admin.systemPrompt).toBeTruthy();
    const next = {
      ...admin,
      systemPrompt: "Sei knapp.",
      uploadSettings: {
        ...admin.uploadSettings,
        maxFilesPerRequest: 50,
        maxFileSizeMB: 0,
        maxTotalSizeMB: 500,
      },
      bookingLeadTime: { days: -2, hours: 30 },
      infoBanner: { enabled: true, text: "Neu: Termine auch freitags" },
      emailNotifications: {
        enabled: true,
        adminEmails: [{ id: 1, username: "admin", email: "admin@example.com" }],
        externalEmails: ["chef@example.com"],
      },
    };
    const saved = await server.fetch("/api/configuration", { method: "PATCH", token, json: next });
    expect(saved.status).toBe(200);
    expect((await saved.json()).message).toBe("Konfiguration erfolgreich gespeichert!");
    const again = await (await server.fetch("/api/configuration", { token })).json();
    expect(again.uploadSettings).toMatchObject({
      maxFilesPerRequest: 10,
      maxFileSizeMB: 1,
      maxTotalSizeMB: 100,
    });
    expect(again.bookingLeadTime).toEqual({ days: 0, hours: 24 });
    expect(again.systemPrompt).toBe("Sei knapp.");

    const visitor = await (await server.fetch("/api/configuration")).json();
    expect(visitor.infoBanner).toEqual({ enabled: true, text: "Neu: Termine auch freitags" });
    expect(visitor).not.toHaveProperty("systemPrompt");
    expect(visitor).not.toHaveProperty("emailNotifications");
    expect(JSON.stringify(visitor)).not.toContain("chef@example.com");
  });

  it("a partial PATCH keeps everything it leaves out; PUT replaces the whole document", async () => {
    const full = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: {
        emailNotifications: {
          enabled: true,
          adminEmails: [],
          externalEmails: ["bleibt@example.com"],
        },
      },
    });
    expect(full.status).toBe(200);
    const before = await (await server.fetch("/api/configuration", { token })).json();
    const partial = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { systemPrompt: "Nur der Prompt ändert sich." },
    });
    expect(partial.status).toBe(200);
    const after = await (await server.fetch("/api/configuration", { token })).json();
    expect(after).toEqual({ ...before, systemPrompt: "Nur der Prompt ändert sich." });
    expect(after.emailNotifications.externalEmails).toEqual(["bleibt@example.com"]);
  });

  it("refuses saving without an admin and with bad input", async () => {
    expect((await server.fetch("/api/configuration", { method: "PATCH", json: {} })).status).toBe(
      401,
    );
    const bad = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { emailNotifications: { enabled: true, externalEmails: ["kein-at"] } },
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain(
      "Bitte geben Sie eine gültige E-Mail-Adresse ein!",
    );
    const malformed = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      headers: { "content-type": "application/json" },
      body: "{",
    });
    expect(malformed.status).toBe(400);
  });
});

describe("settings page form", () => {
  type Config = SettingsConfig;
  const formFor = settingsFormPost;

  async function cookieLogin() {
    const res = await server.fetch("/admin/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ username: "admin", password: "admin-passwort" }).toString(),
    });
    expect(res.status).toBe(302);
    return (res.headers.get("set-cookie") ?? "").split(";")[0];
  }

  const post = (cookie: string, body: URLSearchParams | string) =>
    server.fetch("/admin/settings", {
      method: "POST",
      headers: {
        cookie,
        origin: server.url,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: body.toString(),
    });
  const current = async (): Promise<Config> =>
    (await server.fetch("/api/configuration", { token })).json();

  it("refuses an empty or incomplete post with 400 and changes nothing", async () => {
    const cookie = await cookieLogin();
    const before = await current();
    expect(before.uploadSettings.allowedImageTypes.length).toBeGreaterThan(0);

    const empty = await post(cookie, "");
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("Das Formular war unvollständig");
    expect(await current()).toEqual(before);

    const wiped = {
      ...before,
      uploadSettings: { ...before.uploadSettings, allowedImageTypes: [] },
    };
    const partial = await post(cookie, formFor(wiped, ["notifications"]));
    expect(partial.status).toBe(400);
    expect(await current()).toEqual(before);
  });

  it("saves a complete post, an explicitly emptied upload list included", async () => {
    const cookie = await cookieLogin();
    const before = await current();
    const full = await post(cookie, formFor({ ...before, privacyNote: "Neuer Hinweis." }));
    expect(full.status).toBe(302);
    expect(full.headers.get("location")).toBe("/admin/settings");
    expect(await current()).toEqual({ ...before, privacyNote: "Neuer Hinweis." });

    const emptied = {
      ...before,
      uploadSettings: { ...before.uploadSettings, allowedDocumentTypes: [] },
    };
    const res = await post(cookie, formFor(emptied));
    expect(res.status).toBe(302);
    const after = await current();
    expect(after.uploadSettings.allowedDocumentTypes).toEqual([]);
    expect(after.uploadSettings.allowedImageTypes).toEqual(before.uploadSettings.allowedImageTypes);
  });

  it("saves the brand card (ADRs 268, 269): texts, FAQ, colour; a default text is stored as null", async () => {
    const cookie = await cookieLogin();
    const before = await current();
    const form = formFor(before);
    form.set("branding.name", "Agentur Süd");
    form.set("branding.heroTitle", brandingDefaults.heroTitle);
    form.set("branding.promise", "Antwort morgen.");
    form.set("branding.primaryColor", "#0B5D1E");
    form.set("branding.faq[0].question", "Neue Frage?");
    const saved = await post(cookie, form);
    expect(saved.status).toBe(302);
    const after = await current();
    expect(after.branding).toMatchObject({
      name: "Agentur Süd",
      heroTitle: null,
      promise: "Antwort morgen.",
      primaryColor: "#0b5d1e",
      successMessage: null,
    });
    expect(after.branding.faq[0].question).toBe("Neue Frage?");
    expect(after.branding.faq).toHaveLength(10);
    const page = await (await server.fetch("/")).text();
    expect(page).toContain("Neue Frage?");
    expect(page).toContain("Antwort morgen.");

    const light = formFor(after);
    light.set("branding.primaryColor", "#fde047");
    const refused = await post(cookie, light);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Kontrastverhältnis 4,5:1");
    expect((await current()).branding.primaryColor).toBe("#0b5d1e");

    // "Zurücksetzen" without JS: Conform's update intent fills in the default, nothing is saved.
    const reset = formFor(after);
    reset.set(
      "__intent__",
      JSON.stringify({
        type: "update",
        payload: { name: "branding.promise", value: brandingDefaults.promise },
      }),
    );
    const shown = await post(cookie, reset);
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain(brandingDefaults.promise);
    expect((await current()).branding.promise).toBe("Antwort morgen.");

    // Back to today's texts: every one equal to its default is stored as null again.
    const restored = formFor({ ...after, branding: {} });
    expect((await post(cookie, restored)).status).toBe(302);
    expect((await current()).branding).toMatchObject({ name: null, promise: null, faq: null });
  });

  it("applies a list intent without JS (Conform's insert/reorder/remove) and saves nothing", async () => {
    const cookie = await cookieLogin();
    const before = await current();
    const [first, second] = before.preparationFields;
    const withIntent = (intent: object) => {
      const form = formFor(before);
      form.set("__intent__", JSON.stringify(intent));
      return form;
    };
    const reordered = await post(
      cookie,
      withIntent({ type: "reorder", payload: { name: "preparationFields", from: 1, to: 0 } }),
    );
    expect(reordered.status).toBe(200);
    const html = await reordered.text();
    expect(html).toContain("Feld verschoben – zum Übernehmen bitte speichern.");
    // The moved row comes first and keeps focus on its button: at the top its "nach oben" is
    // disabled (a disabled button cannot take the focus), so "nach unten" has it.
    expect(html.indexOf(`Feld ${second.label} nach oben`)).toBeLessThan(
      html.indexOf(`Feld ${first.label} nach oben`),
    );
    expect(html).toMatch(new RegExp(`aria-label="Feld ${second.label} nach oben"[^>]*disabled=""`));
    expect(html).toMatch(
      new RegExp(`aria-label="Feld ${second.label} nach unten"[^>]*autofocus=""`),
    );

    const inserted = await (
      await post(
        cookie,
        withIntent({
          type: "insert",
          payload: { name: "preparationFields", defaultValue: { name: "", label: "" } },
        }),
      )
    ).text();
    expect(inserted).toContain("Feld hinzugefügt – zum Übernehmen bitte speichern.");
    const newRow = `name="preparationFields[${before.preparationFields.length}].name"`;
    const newInput = inserted.match(
      new RegExp(`<input[^>]*${newRow.replace(/[[\].]/g, "\\$&")}[^>]*>`),
    );
    expect(newInput?.[0]).toContain('autofocus=""');

    const removed = await (
      await post(
        cookie,
        withIntent({ type: "remove", payload: { name: "preparationFields", index: 0 } }),
      )
    ).text();
    expect(removed).toContain("Feld entfernt – zum Übernehmen bitte speichern.");
    expect(removed).not.toContain(`Feld ${first.label} löschen`);
    expect(await current()).toEqual(before);
  });

  it("saves the blocklist, quarantine days and AI limit; refuses a bad entry at its row, saving nothing", async () => {
    const cookie = await cookieLogin();
    const before = await current();
    const spam = {
      blocklist: ["*.spam.test", "2001:db8::/48"],
      quarantineDays: 14,
      heldBookingsPerDay: 5,
    };
    const ai = { dailyLimit: 50, manualDailyLimit: 40 };
    const saved = await post(cookie, formFor({ ...before, spam, ai }));
    expect(saved.status).toBe(302);
    const after = await current();
    expect(after).toEqual({ ...before, spam, ai });
    // A hand-made post without the admins' own AI budget (ADR 318) keeps the stored one.
    const without = formFor(after);
    without.delete("ai.manualDailyLimit");
    expect((await post(cookie, without)).status).toBe(302);
    expect((await current()).ai).toEqual(ai);

    // Without JS: the answer page shows the message at the refused row, focused.
    const bad = { ...spam, blocklist: ["*.spam.test", "198.51.100.0/33"], quarantineDays: 7 };
    const page = await post(
      cookie,
      formFor({ ...after, spam: bad, ai: { dailyLimit: 9, manualDailyLimit: 9 } }),
    );
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain(
      "Bitte geben Sie einen gültigen CIDR-Bereich ein, z. B. 192.0.2.0/24 oder 2001:db8::/32.",
    );
    const row = (page: string, i: number) =>
      page.match(new RegExp(`<input[^>]*name="spam\\.blocklist\\[${i}\\]"[^>]*>`))?.[0];
    expect(row(html, 1)).toContain('aria-invalid="true"');
    expect(row(html, 1)).toContain('autofocus=""');
    expect(await current()).toEqual(after);

    // Without JS, "Eintrag hinzufügen" is applied by the server and the new row is focused.
    const form = formFor(after);
    form.set("__intent__", JSON.stringify({ type: "insert", payload: { name: "spam.blocklist" } }));
    const inserted = await (await post(cookie, form)).text();
    expect(inserted).toContain("Eintrag hinzugefügt – zum Übernehmen bitte speichern.");
    expect(row(inserted, 2)).toContain('autofocus=""');
    expect(await current()).toEqual(after);

    // The API's PATCH still sets them too, and the form keeps them when it saves something else.
    const patched = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { spam: { blocklist: ["*@bot.test"], quarantineDays: 3 }, ai: { dailyLimit: 5 } },
    });
    expect(patched.status).toBe(200);
    const viaApi = await current();
    expect(viaApi.spam).toEqual({
      blocklist: ["*@bot.test"],
      quarantineDays: 3,
      heldBookingsPerDay: 5,
    });
    expect(viaApi.ai).toEqual({ dailyLimit: 5, manualDailyLimit: 40 });
    const refusedByApi = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { spam: { blocklist: ["a@"] } },
    });
    expect(refusedByApi.status).toBe(400);
    expect(JSON.stringify(await refusedByApi.json())).toContain("gültige E-Mail-Adresse");
    expect(await current()).toEqual(viaApi);
  });

  it("refuses a number outside its range at the field, focused, with a failed-save toast (no JS and JS)", async () => {
    const cookie = await cookieLogin();
    const before = await current();
    const form = formFor({ ...before, bookingLeadTime: { days: 1, hours: 30 } });
    // Without JS: the answer page itself shows the message at the focused field and the toast.
    const page = await post(cookie, form);
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain("Bitte geben Sie eine ganze Zahl von 0 bis 24 ein.");
    expect(html).toMatch(/<input[^>]*id="leadHours"[^>]*autofocus=""/);
    expect(html).toMatch(/<input[^>]*id="leadHours"[^>]*aria-invalid="true"/);
    expect(html).toContain(
      "Die Konfiguration wurde nicht gespeichert. Bitte prüfen Sie die markierten Felder.",
    );
    expect(html).toContain('data-toast="error"');
    expect(page.headers.get("set-cookie") ?? "").not.toContain("__flash=");
    expect(await current()).toEqual(before);
    // With JS (a .data request): the flash cookie carries the toast to root's revalidation.
    const data = await server.fetch("/admin/settings.data", {
      method: "POST",
      headers: {
        cookie,
        origin: server.url,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: form.toString(),
    });
    expect(data.headers.get("set-cookie") ?? "").toContain("__flash=");
    expect(await current()).toEqual(before);
  });
});

describe("affiliate codes", () => {
  it("requires an admin for every CRUD call", async () => {
    for (const [method, path] of [
      ["GET", "/api/affiliate-codes"],
      ["POST", "/api/affiliate-codes"],
      ["PATCH", "/api/affiliate-codes/1"],
      ["DELETE", "/api/affiliate-codes/1"],
      ["GET", "/api/admin/affiliate-codes"],
    ] as const) {
      expect(
        (await server.fetch(path, { method, json: method === "GET" ? undefined : {} })).status,
        `${method} ${path}`,
      ).toBe(401);
    }
  });

  it("creates, validates, toggles and deletes", async () => {
    const invalid = await server.fetch("/api/affiliate-codes", {
      method: "POST",
      token,
      json: { name: "", email: "", discountValue: "" },
    });
    expect(invalid.status).toBe(400);
    expect((await invalid.json()).error).toBe("Bitte füllen Sie alle Felder aus!");
    // Only the discount empty: still the spec's message (not the 1–100 range message).
    const noDiscount = await server.fetch("/api/affiliate-codes", {
      method: "POST",
      token,
      json: { name: "P", email: "p@example.com", discountValue: "" },
    });
    expect(noDiscount.status).toBe(400);
    expect((await noDiscount.json()).error).toBe("Bitte füllen Sie alle Felder aus!");
    const tooMuch = await server.fetch("/api/affiliate-codes", {
      method: "POST",
      token,
      json: { name: "P", email: "p@example.com", discountValue: 150 },
    });
    expect(tooMuch.status).toBe(400);

    const created = await server.fetch("/api/affiliate-codes", {
      method: "POST",
      token,
      json: { name: "Partner GmbH", email: "partner@example.com", discountValue: 15 },
    });
    expect(created.status).toBe(201);
    const { code, affiliateCode } = await created.json();
    expect(code).toMatch(/^[A-HJ-KM-NP-Z2-9]{8}$/);

    expect(
      await (await server.fetch(`/api/affiliate-codes/validate/${code.toLowerCase()}`)).json(),
    ).toEqual({ valid: true, discountValue: 15 });
    const list = await (await server.fetch("/api/admin/affiliate-codes", { token })).json();
    expect(list.map((c: { code: string }) => c.code)).toContain(code);

    await server.fetch(`/api/affiliate-codes/${affiliateCode.id}`, {
      method: "PATCH",
      token,
      json: { isActive: false },
    });
    expect(await (await server.fetch(`/api/affiliate-codes/validate/${code}`)).json()).toEqual({
      valid: false,
      discountValue: 0,
    });
    expect(
      (
        await server.fetch(`/api/affiliate-codes/${affiliateCode.id}`, {
          method: "PATCH",
          token,
          json: { isActive: "ja" },
        })
      ).status,
    ).toBe(400);

    expect(
      (await server.fetch(`/api/affiliate-codes/${affiliateCode.id}`, { method: "DELETE", token }))
        .status,
    ).toBe(200);
    expect(
      (await server.fetch(`/api/affiliate-codes/${affiliateCode.id}`, { method: "DELETE", token }))
        .status,
    ).toBe(404);
  });
});
