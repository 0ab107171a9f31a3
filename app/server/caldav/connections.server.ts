import { eq } from "drizzle-orm";
import {
  CALDAV_MESSAGES,
  type CaldavChoiceInput,
  type CaldavConnectInput,
  type CaldavConnectionView,
  type CaldavErrorKind,
  type CaldavWarning,
} from "~/lib/caldav";
import { admins, calendarConnections } from "~db/schema";
import { sealer } from "../platform/crypto.server";
import { db } from "../platform/db.server";
import { type Failure, failure } from "../platform/result.server";
import { type AuditActor, audit } from "../privacy/audit.server";
import { type DavAccount, discover, holdsEvents } from "./client.server";
import type { DavFailure } from "./http.server";

/**
 * An admin's CalDAV connection (ADR 335): "Verbinden" discovers the calendars and stores the
 * login with the app password sealed (AES-256-GCM under SESSION_SECRET, never shown again); the
 * choice of busy calendars and the demo calendar; "Verbindung testen"; the connection's health,
 * which every CalDAV call updates (a failure is one warning on the connection, never a 500).
 */
export type Connection = typeof calendarConnections.$inferSelect;

const box = sealer("caldav-password");
/** The time one discovery (several requests, redirects included) may take. */
const DISCOVERY_MS = 15_000;

export function connectionOf(adminId: number): Connection | undefined {
  return db()
    .select()
    .from(calendarConnections)
    .where(eq(calendarConnections.adminId, adminId))
    .get();
}

export function connectionById(id: number): Connection | undefined {
  return db().select().from(calendarConnections).where(eq(calendarConnections.id, id)).get();
}

export const allConnections = () => db().select().from(calendarConnections).all();

/** The connections of active admins: a deactivated admin's calendars are neither read nor written. */
export function activeConnections(): Connection[] {
  return db()
    .select({ c: calendarConnections })
    .from(calendarConnections)
    .innerJoin(admins, eq(admins.id, calendarConnections.adminId))
    .where(eq(admins.isActive, true))
    .all()
    .map((r) => r.c);
}

/** The login of a connection; null when SESSION_SECRET changed and the password cannot be opened. */
export function accountOf(connection: Connection): DavAccount | null {
  const password = box.open(connection.password);
  return password === null ? null : { username: connection.username, password };
}

const KIND_OF: Record<DavFailure["kind"], CaldavErrorKind> = {
  auth: "auth",
  forbidden: "auth",
  dns: "unreachable",
  tls: "unreachable",
  timeout: "unreachable",
  network: "unreachable",
  refused: "unreachable",
  redirects: "garbage",
  "too-large": "garbage",
  garbage: "garbage",
  http: "unreachable",
};

/**
 * A failed discovery in plain German, with the field it is about: address not found, TLS, 401,
 * 403, no principal, no calendar that holds events — and the rest.
 */
export function discoveryFailure(f: DavFailure, serverUrl: string): Failure {
  const host = (() => {
    try {
      return new URL(serverUrl).host;
    } catch {
      return serverUrl;
    }
  })();
  switch (f.kind) {
    case "dns":
      return failure(
        400,
        `Adresse nicht gefunden: Den Server „${host}“ gibt es nicht.`,
        "serverUrl",
      );
    case "tls":
      return failure(
        400,
        `Verschlüsselte Verbindung (TLS) zu „${host}“ fehlgeschlagen: Das Zertifikat des Servers ist ungültig.`,
        "serverUrl",
      );
    case "auth":
      return failure(
        400,
        "Anmeldung abgelehnt (401): Benutzername oder App-Passwort stimmen nicht.",
        "password",
      );
    case "forbidden":
      return failure(
        400,
        "Zugriff verweigert (403): Das Konto darf die Kalender nicht lesen.",
        "username",
      );
    case "refused":
      return failure(400, `Diese Adresse ist nicht erlaubt: ${f.error}`, "serverUrl");
    case "timeout":
      return failure(400, `Zeitüberschreitung: „${host}“ antwortet nicht.`, "serverUrl");
    case "network":
      return failure(400, `Server „${host}“ nicht erreichbar: ${f.error}`, "serverUrl");
    case "redirects":
      return failure(400, `Zu viele Weiterleitungen: ${f.error}`, "serverUrl");
    case "too-large":
      return failure(400, `Die Antwort des Servers ist zu groß: ${f.error}`, "serverUrl");
    default:
      return failure(
        400,
        f.error.startsWith("Kein Benutzerkonto")
          ? "Kein Benutzerkonto gefunden: Der Server nennt kein „current-user-principal“. Bitte geben Sie die genaue CalDAV-Adresse ein."
          : `Kein CalDAV-Server gefunden: ${f.error}`,
        "serverUrl",
      );
  }
}

const NO_EVENT_CALENDAR = failure(
  400,
  "Kein Kalender mit Terminen gefunden: Das Konto hat keinen Kalender für Termine (VEVENT).",
  "serverUrl",
);

/** "Verbinden": discovery with the typed login; stores it (the password sealed) on success. */
export async function connectCalendar(
  adminId: number,
  input: CaldavConnectInput,
  actor: AuditActor,
): Promise<{ ok: true; message: string } | Failure> {
  const account = { username: input.username, password: input.password };
  const found = await discover(input.serverUrl, account, Date.now() + DISCOVERY_MS);
  if (!found.ok) return discoveryFailure(found, input.serverUrl);
  const calendars = found.calendars.filter(holdsEvents);
  if (!calendars.length) return NO_EVENT_CALENDAR;
  const before = connectionOf(adminId);
  const urls = new Set(calendars.map((c) => c.url));
  // Reconnecting the same account keeps the choice; a new one counts every calendar as busy.
  const busy = before?.busyCalendars.filter((u) => urls.has(u)) ?? [];
  const values = {
    serverUrl: input.serverUrl,
    principalUrl: found.principalUrl,
    homeUrl: found.homeUrl,
    username: input.username,
    password: box.seal(input.password),
    calendars,
    busyCalendars: busy.length ? busy : calendars.map((c) => c.url),
    writeCalendar:
      before?.writeCalendar && urls.has(before.writeCalendar) ? before.writeCalendar : null,
    lastError: null,
    errorKind: null,
    checkedAt: new Date(),
    lastOkAt: new Date(),
    syncToken: null,
    nextSyncAt: new Date(),
    updatedAt: new Date(),
  };
  db()
    .insert(calendarConnections)
    .values({ adminId, ...values })
    .onConflictDoUpdate({ target: calendarConnections.adminId, set: values })
    .run();
  audit(actor, "calendar-connected", `Admin ${adminId}`, {
    host: new URL(found.principalUrl).host,
    calendars: calendars.length,
  });
  return { ok: true, message: CALDAV_MESSAGES.connected(calendars.length) };
}

/** Saves which calendars count as busy, which one gets the demos and whether the admin takes demos. */
export function saveCalendarChoice(
  adminId: number,
  input: CaldavChoiceInput,
): { ok: true; message: string } | Failure {
  const connection = connectionOf(adminId);
  if (!connection) return failure(409, CALDAV_MESSAGES.notConnected);
  const known = new Set(connection.calendars.map((c) => c.url));
  const unknown = [
    ...input.busyCalendars,
    ...(input.writeCalendar ? [input.writeCalendar] : []),
  ].find((u) => !known.has(u));
  if (unknown) return failure(400, CALDAV_MESSAGES.unknownCalendar, "busyCalendars");
  db()
    .update(calendarConnections)
    .set({
      busyCalendars: [...new Set(input.busyCalendars)],
      writeCalendar: input.writeCalendar,
      takesDemos: input.takesDemos,
      // The demo calendar may be another one now: its changes are read afresh.
      ...(input.writeCalendar !== connection.writeCalendar ? { syncToken: null } : {}),
      nextSyncAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(calendarConnections.id, connection.id))
    .run();
  return { ok: true, message: CALDAV_MESSAGES.saved };
}

/** "Verbindung testen": discovery again with the stored login; names what failed. */
export async function testCalendarConnection(
  adminId: number,
): Promise<{ ok: true; message: string } | Failure> {
  const connection = connectionOf(adminId);
  if (!connection) return failure(409, CALDAV_MESSAGES.notConnected);
  const account = accountOf(connection);
  if (!account)
    return failure(
      409,
      "Das gespeicherte App-Passwort ist nicht mehr lesbar (SESSION_SECRET geändert?). Bitte verbinden Sie den Kalender neu.",
    );
  const found = await discover(connection.serverUrl, account, Date.now() + DISCOVERY_MS);
  if (!found.ok) {
    markFailure(connection.id, found);
    return { ...discoveryFailure(found, connection.serverUrl), status: 502 };
  }
  const calendars = found.calendars.filter(holdsEvents);
  if (!calendars.length) {
    markFailure(connection.id, {
      ok: false,
      kind: "garbage",
      error: "Kein Kalender mit Terminen.",
    });
    return { ...NO_EVENT_CALENDAR, status: 502 };
  }
  const urls = new Set(calendars.map((c) => c.url));
  db()
    .update(calendarConnections)
    .set({
      calendars,
      busyCalendars: connection.busyCalendars.filter((u) => urls.has(u)),
      writeCalendar:
        connection.writeCalendar && urls.has(connection.writeCalendar)
          ? connection.writeCalendar
          : null,
      updatedAt: new Date(),
    })
    .where(eq(calendarConnections.id, connection.id))
    .run();
  markOk(connection.id);
  return { ok: true, message: CALDAV_MESSAGES.testOk(calendars.length) };
}

/** "Trennen": the login and the choice are removed (demo events already written stay). */
export function disconnectCalendar(
  adminId: number,
  actor: AuditActor,
): { ok: true; message: string } | Failure {
  const removed = db()
    .delete(calendarConnections)
    .where(eq(calendarConnections.adminId, adminId))
    .run().changes;
  if (!removed) return failure(404, CALDAV_MESSAGES.notConnected);
  audit(actor, "calendar-disconnected", `Admin ${adminId}`);
  return { ok: true, message: CALDAV_MESSAGES.disconnected };
}

/** Every CalDAV call that worked: the connection is healthy again. */
export function markOk(id: number) {
  const now = new Date();
  db()
    .update(calendarConnections)
    .set({ lastError: null, errorKind: null, checkedAt: now, lastOkAt: now })
    .where(eq(calendarConnections.id, id))
    .run();
}

/** A failed CalDAV call: one warning on the connection (logged once per new error, no data). */
export function markFailure(id: number, f: DavFailure) {
  const kind = KIND_OF[f.kind];
  const error = f.error.slice(0, 200);
  const before = connectionById(id);
  db()
    .update(calendarConnections)
    .set({ lastError: error, errorKind: kind, checkedAt: new Date() })
    .where(eq(calendarConnections.id, id))
    .run();
  if (before && before.lastError !== error)
    console.warn(`Kalender (CalDAV) ${id}: ${kind}: ${error}`);
}

/** What the account page and the API show of the admin's connection. */
export function calendarConnectionView(adminId: number): CaldavConnectionView {
  const c = connectionOf(adminId);
  if (!c) return { connected: false };
  const busy = new Set(c.busyCalendars);
  return {
    connected: true,
    serverUrl: c.serverUrl,
    username: c.username,
    calendars: c.calendars.map((cal) => ({
      url: cal.url,
      name: cal.name,
      holdsEvents: holdsEvents(cal),
      busy: busy.has(cal.url),
      write: cal.url === c.writeCalendar,
    })),
    writeCalendar: c.writeCalendar,
    takesDemos: c.takesDemos,
    lastError: c.lastError,
    errorKind: (c.errorKind as CaldavErrorKind | null) ?? null,
    checkedAt: c.checkedAt?.toISOString() ?? null,
    lastOkAt: c.lastOkAt?.toISOString() ?? null,
  };
}

/** The dashboard's warnings: every connection whose last call failed. */
export function caldavWarnings(): CaldavWarning[] {
  return db()
    .select({ c: calendarConnections, username: admins.username })
    .from(calendarConnections)
    .innerJoin(admins, eq(admins.id, calendarConnections.adminId))
    .all()
    .filter(({ c }) => c.lastError && c.errorKind)
    .map(({ c, username }) => ({
      admin: username,
      host: (() => {
        try {
          return new URL(c.principalUrl ?? c.serverUrl).host;
        } catch {
          return c.serverUrl;
        }
      })(),
      error: c.lastError as string,
      errorKind: c.errorKind as CaldavErrorKind,
      lastOkAt: c.lastOkAt?.toISOString() ?? null,
    }));
}
