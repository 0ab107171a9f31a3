import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MESSAGES } from "~/lib/auth-forms";
import { CALDAV_MESSAGES } from "~/lib/caldav";
import { NUMBER_SETTINGS, type NumberSettingPath, settingRangeMessage } from "~/lib/setting-ranges";
import { EMAIL_INVALID } from "~/lib/settings-form";
import { VIDEO_URL_INVALID } from "~/lib/team-calendar";
import { createAffiliateCode } from "~/server/affiliates.server";
import { getToast } from "~/server/http/flash.server";
import { db } from "~/server/platform/db.server";
import { appointments, requests } from "~db/schema";
import { insertAdmin } from "./auth-helpers";
import { startTestServer, type TestServer } from "./server";
import { type SettingsConfig, settingsFormPost } from "./settings-post";

/**
 * One rule, two faces (ADRs 240, 310): the same bad input through the page's form action
 * and through its /api twin is refused with the same German message.
 */
let server: TestServer;
let token: string;
let cookie: string;
let myId: number;
let requestId: number;
let requestUpdatedAt: string;
let affiliateId: number;
let cancelledId: number;
let bookedId: number;
/** The configuration as GET /api/configuration gives it to an admin (what the settings form shows). */
let config: SettingsConfig;
let colleagueId: number;

beforeAll(async () => {
  server = await startTestServer();
  token = await server.adminToken();
  cookie = await server.adminCookie();
  const me = await server.fetch("/api/admin/auth/verify", { token });
  myId = ((await me.json()) as { admin: { id: number } }).admin.id;
  const row = db()
    .insert(requests)
    .values({
      name: "Frieda Formular",
      email: "frieda@example.com",
      phone: "+49 30 1234 5678",
      companyDescription: "Bäckerei mit drei Filialen in Halle",
      description: "Wir brauchen eine Vorbestellung.",
    })
    .returning()
    .get();
  requestId = row.id;
  requestUpdatedAt = row.updatedAt.toISOString();
  // Two built-in bookings a week ahead: one cancelled, one standing (ADR 282's card and API).
  const booking = (status: string) =>
    db()
      .insert(appointments)
      .values({
        provider: "builtin",
        externalUid: `two-faces-${status}`,
        eventTypeKey: "demo",
        eventTypeName: "Demo-Termin",
        startTime: new Date(Date.now() + 7 * 86_400_000),
        durationMinutes: 30,
        status,
      })
      .returning()
      .get().id;
  cancelledId = booking("CANCELLED");
  bookedId = booking("ACCEPTED");
  colleagueId = (await insertAdmin("zwei-seiten-kollege")).id;
  affiliateId = createAffiliateCode({
    name: "Paula",
    email: "paula@example.com",
    discountValue: 10,
  }).id;
  config = await (await server.fetch("/api/configuration", { token })).json();
});
afterAll(() => server.close());

const decode = (html: string) =>
  html
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&#39;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** What the page says after a form post without JS: the toast of a redirect, else the page. */
async function htmlFace(path: string, form: Record<string, string> | URLSearchParams) {
  const res = await server.fetch(path, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form),
    redirect: "manual",
  });
  if (res.status >= 300 && res.status < 400) {
    const flash = (res.headers.get("set-cookie") ?? "").match(/__flash=[^;]*/)?.[0] ?? "";
    const { toast } = await getToast(new Request("http://x/", { headers: { cookie: flash } }));
    expect(toast?.type, `${path}: a redirect with an error toast`).toBe("error");
    return toast?.message ?? "";
  }
  expect(res.status, `${path}: refused`).toBeGreaterThanOrEqual(400);
  return decode(await res.text());
}

/** What the API says: its error and, for a refused field of a document, the field's messages. */
async function apiFace(method: string, path: string, json: unknown) {
  const res = await server.fetch(path, { method, token, json });
  expect(res.status, `${method} ${path}: refused`).toBeGreaterThanOrEqual(400);
  const body = (await res.json()) as { error: string; fieldErrors?: Record<string, string[]> };
  return [body.error, ...Object.values(body.fieldErrors ?? {}).flat()].join("\n");
}

/** The settings page's post of the stored configuration with `fields` changed. */
function settingsPost(fields: Record<string, string>) {
  const form = settingsFormPost(config);
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

type Case = {
  rule: string;
  message: string;
  html: () => [string, Record<string, string> | URLSearchParams];
  api: () => [string, string, unknown];
};

const tooLong = "x".repeat(20_001);

const cases: Case[] = [
  {
    rule: "a CalDAV server address that is no address",
    message: CALDAV_MESSAGES.serverUrl,
    html: () => [
      "/admin/account",
      { intent: "calendar-connect", serverUrl: "::::", username: "lea", password: "geheim" },
    ],
    api: () => [
      "PUT",
      "/api/admin/account/calendar",
      { serverUrl: "::::", username: "lea", password: "geheim" },
    ],
  },
  {
    rule: "a calendar choice without a connected calendar",
    message: CALDAV_MESSAGES.notConnected,
    html: () => ["/admin/account", { intent: "calendar-choice", takesDemos: "on" }],
    api: () => [
      "PATCH",
      "/api/admin/account/calendar",
      { busyCalendars: [], writeCalendar: null, takesDemos: true },
    ],
  },
  {
    rule: "preparation text longer than 20,000 characters",
    message: "Der Text ist zu lang (max. 20.000 Zeichen).",
    html: () => [
      `/admin/requests?requestId=${requestId}`,
      {
        intent: "preparation",
        id: String(requestId),
        updatedAt: requestUpdatedAt,
        "prep.zielgruppe": tooLong,
      },
    ],
    api: () => [
      "PUT",
      `/api/admin/requests/${requestId}`,
      { preparationData: { zielgruppe: tooLong } },
    ],
  },
  {
    rule: "unknown request status",
    message: "Unbekannter Status. Erlaubt: New, In Progress, Done.",
    html: () => ["/admin/requests", { intent: "status", id: String(requestId), status: "Fertig" }],
    api: () => ["PATCH", `/api/requests/${requestId}`, { status: "Fertig" }],
  },
  {
    rule: "assignment without a valid admin",
    message: "admin_id fehlt oder ist ungültig.",
    html: () => [
      "/admin/requests",
      { intent: "assign", id: String(requestId), op: "add", adminId: "abc" },
    ],
    api: () => [
      "POST",
      `/api/admin/requests/${requestId}/assign`,
      { action: "add", admin_id: "abc" },
    ],
  },
  {
    rule: "affiliate code switched with a non-boolean",
    message: "isActive muss true oder false sein.",
    html: () => [
      "/admin/affiliate-codes",
      { intent: "toggle", id: String(affiliateId), isActive: "ja" },
    ],
    api: () => ["PATCH", `/api/affiliate-codes/${affiliateId}`, { isActive: "ja" }],
  },
  {
    rule: "affiliate discount outside 1–100 %",
    message: "Der Rabatt muss zwischen 1 und 100 % liegen.",
    html: () => [
      "/admin/affiliate-codes",
      { intent: "create", name: "Otto", email: "otto@example.com", discountValue: "500" },
    ],
    api: () => [
      "POST",
      "/api/affiliate-codes",
      { name: "Otto", email: "otto@example.com", discountValue: 500 },
    ],
  },
  {
    rule: "admin status switched with a non-boolean",
    message: "'activate' muss true oder false sein.",
    html: () => ["/admin/users", { intent: "toggle", id: "999", activate: "ja" }],
    api: () => ["POST", "/api/admin/users/999/toggle-status", { activate: "ja" }],
  },
  {
    rule: "an admin switching off her own account",
    message: "Sie können Ihren eigenen Account nicht deaktivieren oder aktivieren.",
    html: () => ["/admin/users", { intent: "toggle", id: String(myId), activate: "0" }],
    api: () => ["POST", `/api/admin/users/${myId}/toggle-status`, { activate: false }],
  },
  {
    rule: "invitation to an invalid address",
    message: "Bitte geben Sie eine gültige E-Mail-Adresse ein",
    html: () => ["/admin/users", { intent: "invite", email: "keine-adresse" }],
    api: () => ["POST", "/api/admin/invite", { email: "keine-adresse" }],
  },
  {
    rule: "password change with a wrong current password",
    message: MESSAGES.wrongCurrent,
    html: () => [
      "/admin/change-password",
      {
        oldPassword: "falsch-falsch-1",
        newPassword: "Neues-Passwort-2026",
        confirmPassword: "Neues-Passwort-2026",
      },
    ],
    api: () => [
      "POST",
      "/api/admin/auth/change-password",
      { oldPassword: "falsch-falsch-1", newPassword: "Neues-Passwort-2026" },
    ],
  },
  {
    rule: "power over another admin with a wrong step-up password (ADR 315)",
    message: "Das Passwort ist falsch.",
    html: () => [
      "/admin/users",
      {
        intent: "toggle",
        id: String(colleagueId),
        activate: "0",
        "stepUp.password": "falsch-falsch-1",
      },
    ],
    api: () => [
      "POST",
      `/api/admin/users/${colleagueId}/toggle-status`,
      { activate: false, stepUp: { password: "falsch-falsch-1" } },
    ],
  },
  {
    rule: "cancelling a cancelled booking",
    message: "Dieser Termin wurde bereits abgesagt.",
    html: () => ["/admin/appointments", { intent: "cancel", id: String(cancelledId) }],
    api: () => ["POST", `/api/admin/appointments/${cancelledId}/cancel`, {}],
  },
  {
    rule: "moving a booking to a time the week does not offer",
    message: "Dieser Zeitpunkt ist nicht buchbar.",
    html: () => [
      `/admin/appointments/${bookedId}/verschieben`,
      { startTime: "2031-01-05T02:00:00.000Z" },
    ],
    api: () => [
      "POST",
      `/api/admin/appointments/${bookedId}/reschedule`,
      { startTime: "2031-01-05T02:00:00.000Z" },
    ],
  },
  {
    rule: "a booking's own video link that is not https",
    message: VIDEO_URL_INVALID,
    html: () => [
      "/admin/appointments",
      { intent: "video-link", id: String(bookedId), videoUrl: "http://meet.example.com/demo" },
    ],
    api: () => [
      "PATCH",
      `/api/admin/appointments/${bookedId}`,
      { videoUrl: "http://meet.example.com/demo" },
    ],
  },
  {
    rule: "the team's video room (settings) that is not https",
    message: VIDEO_URL_INVALID,
    html: () => ["/admin/settings", settingsPost({ "teamCalendar.videoUrl": "ftp://x" })],
    api: () => ["PATCH", "/api/configuration", { teamCalendar: { videoUrl: "ftp://x" } }],
  },
  {
    rule: "a notification address (settings) that is not one",
    message: EMAIL_INVALID,
    html: () => [
      "/admin/settings",
      settingsPost({ "emailNotifications.externalEmails[0]": "kein-at" }),
    ],
    api: () => [
      "PATCH",
      "/api/configuration",
      { emailNotifications: { externalEmails: ["kein-at"] } },
    ],
  },
  // The pipeline (ADRs 345, 348): the board's move and "Testversion liefern".
  {
    rule: "a move to a stage that is not configured",
    message: "Unbekannte Phase.",
    html: () => [
      "/admin/requests/board",
      { intent: "stage", id: String(requestId), stage: "vertrag" },
    ],
    api: () => ["POST", `/api/admin/requests/${requestId}/stage`, { stage: "vertrag" }],
  },
  {
    rule: "a move to Verloren without a reason",
    message: "Bitte wählen Sie einen Grund für „Verloren“.",
    html: () => [
      "/admin/requests/board",
      { intent: "stage", id: String(requestId), stage: "lost" },
    ],
    api: () => ["POST", `/api/admin/requests/${requestId}/stage`, { stage: "lost" }],
  },
  {
    rule: "a trial version's link without https",
    message: "Bitte geben Sie eine vollständige Adresse mit https:// ein.",
    html: () => [
      `/admin/requests?requestId=${requestId}`,
      { intent: "trial", id: String(requestId), url: "http://demo.example.com" },
    ],
    api: () => [
      "POST",
      `/api/admin/requests/${requestId}/trial`,
      { url: "http://demo.example.com" },
    ],
  },
];

describe("the HTML and /api faces of a rule give the same German error", () => {
  it.each(cases)("$rule", async ({ message, html, api }) => {
    const [method, apiPath, json] = api();
    expect(await apiFace(method, apiPath, json)).toContain(message);
    const [path, form] = html();
    // Not on the page before (the message comes from the refusal, not from the page's text).
    const before = decode(await (await server.fetch(path, { headers: { cookie } })).text());
    expect(before).not.toContain(message);
    expect(await htmlFace(path, form)).toContain(message);
  });

  it("the rules changed nothing", async () => {
    const row = db()
      .select()
      .from(requests)
      .all()
      .find((r) => r.id === requestId);
    expect(row?.status).toBe("New");
    expect(row?.stage).toBe("new");
    expect(row?.trialUrl).toBeNull();
    expect(row?.preparationData ?? {}).toEqual({});
    const booked = db()
      .select()
      .from(appointments)
      .all()
      .find((a) => a.id === bookedId);
    expect(booked?.videoUrl ?? null).toBeNull();
    expect(await (await server.fetch("/api/configuration", { token })).json()).toEqual(config);
  });
});

/**
 * Number settings are the one deliberate difference (ADR 235): from the same table of ranges
 * (ADR 311) the API clamps a value as the spec says, the settings page refuses it at the field.
 */
describe("a number setting outside its range: the API clamps, the page refuses", () => {
  const paths = Object.keys(NUMBER_SETTINGS) as NumberSettingPath[];
  const at = (value: SettingsConfig, path: string) =>
    path.split(".").reduce((v, key) => v?.[key], value);
  const patchOf = (path: string, value: unknown) =>
    path.split(".").reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
  const numbersOf = (c: SettingsConfig) =>
    Object.fromEntries(paths.map((p) => [p, String(at(c, p))]));

  it.each(paths)("%s", async (path) => {
    const { min, max } = NUMBER_SETTINGS[path];
    for (const [sent, stored] of [
      [max + 1, max],
      [min - 1, min],
    ]) {
      const patched = await server.fetch("/api/configuration", {
        method: "PATCH",
        token,
        json: patchOf(path, sent),
      });
      expect(patched.status, `${path}=${sent}`).toBe(200);
      const saved = (await patched.json()) as { configuration: SettingsConfig };
      expect(at(saved.configuration, path), `${path}=${sent}`).toBe(stored);
      const section = path.split(".")[0] as string;
      const back = { [section]: config[section] };
      expect(
        (await server.fetch("/api/configuration", { method: "PATCH", token, json: back })).status,
      ).toBe(200);

      const page = await htmlFace(
        "/admin/settings",
        settingsPost({ ...numbersOf(config), [path]: String(sent) }),
      );
      expect(page).toContain(settingRangeMessage(path));
    }
    expect(await (await server.fetch("/api/configuration", { token })).json()).toEqual(config);
  });
});
