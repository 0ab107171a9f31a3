import type { SubmissionResult } from "@conform-to/react";
import { z } from "zod";

/**
 * An admin's CalDAV calendar (ADRs 335–338): the form schemas shared by Account-Einstellungen and
 * `/api/admin/account/calendar`, the wire types the page shows, and the plain German names of
 * what failed.
 */

export const CALDAV_MESSAGES = {
  serverUrl:
    "Bitte geben Sie die Adresse Ihres Kalender-Servers ein (z. B. https://cloud.example.com).",
  username: "Bitte geben Sie Ihren Benutzernamen ein.",
  password: "Bitte geben Sie das App-Passwort ein.",
  notConnected: "Es ist noch kein Kalender verbunden.",
  unknownCalendar:
    "Diesen Kalender gibt es in Ihrem Konto nicht (mehr). Bitte laden Sie die Seite neu.",
  connected: (n: number) =>
    `Kalender verbunden: ${n === 1 ? "1 Kalender" : `${n} Kalender`} gefunden. Bitte wählen Sie, welche als belegt zählen und wohin Demos eingetragen werden.`,
  saved: "Die Kalender-Auswahl wurde gespeichert.",
  disconnected: "Die Verbindung zum Kalender wurde getrennt.",
  testOk: (n: number) =>
    `Verbindung erfolgreich: Anmeldung in Ordnung, ${n === 1 ? "1 Kalender" : `${n} Kalender`} mit Terminen gefunden.`,
} as const;

/** "cloud.example.com" → "https://cloud.example.com"; http(s) only, no credentials in the URL. */
const ServerUrlSchema = z
  .string({ error: CALDAV_MESSAGES.serverUrl })
  .trim()
  .min(1, CALDAV_MESSAGES.serverUrl)
  .max(2000, "Die Adresse ist zu lang (max. 2000 Zeichen).")
  .transform((v) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) ? v : `https://${v}`))
  .refine((v) => {
    try {
      const url = new URL(v);
      return ["https:", "http:"].includes(url.protocol) && url.hostname !== "" && !url.username;
    } catch {
      return false;
    }
  }, CALDAV_MESSAGES.serverUrl);

/** "Verbinden": server address (discovery starts there), user name, app password. */
export const CaldavConnectSchema = z.object({
  serverUrl: ServerUrlSchema,
  username: z
    .string({ error: CALDAV_MESSAGES.username })
    .trim()
    .min(1, CALDAV_MESSAGES.username)
    .max(200, "Der Benutzername ist zu lang (max. 200 Zeichen)."),
  password: z
    .string({ error: CALDAV_MESSAGES.password })
    .min(1, CALDAV_MESSAGES.password)
    .max(500, "Das App-Passwort ist zu lang (max. 500 Zeichen)."),
});
export type CaldavConnectInput = z.infer<typeof CaldavConnectSchema>;

const CalendarUrl = z.string().max(2000);

/** The choice: which calendars count as busy, which one gets the demos, whether I take demos. */
export const CaldavChoiceSchema = z.object({
  busyCalendars: z
    .preprocess(
      (v) => (v === undefined ? [] : typeof v === "string" ? [v] : v),
      z.array(CalendarUrl),
    )
    .pipe(z.array(CalendarUrl).max(50)),
  writeCalendar: z.preprocess(
    (v) => (v === undefined || v === "" ? null : v),
    CalendarUrl.nullable(),
  ),
  takesDemos: z.preprocess((v) => v === true || v === "on", z.boolean()),
});
export type CaldavChoiceInput = z.infer<typeof CaldavChoiceSchema>;

/** Kinds of failure a connection reports (the page and the dashboard word them). */
export type CaldavErrorKind = "auth" | "unreachable" | "garbage";

/** One calendar of the account as the page lists it. */
export type CaldavCalendarView = {
  url: string;
  name: string;
  holdsEvents: boolean;
  busy: boolean;
  write: boolean;
};

/** What Account-Einstellungen and `GET /api/admin/account/calendar` show (never the password). */
export type CaldavConnectionView =
  | { connected: false }
  | {
      connected: true;
      serverUrl: string;
      username: string;
      calendars: CaldavCalendarView[];
      writeCalendar: string | null;
      takesDemos: boolean;
      lastError: string | null;
      errorKind: CaldavErrorKind | null;
      checkedAt: string | null;
      lastOkAt: string | null;
    };

/** A connection in trouble, for the dashboard (an admin's name, what failed, since when). */
export type CaldavWarning = {
  admin: string;
  host: string;
  error: string;
  errorKind: CaldavErrorKind;
  lastOkAt: string | null;
};

/** The dashboard's and the page's headline for a failing connection. */
export function caldavWarningText(w: Pick<CaldavWarning, "errorKind" | "error">): string {
  if (w.errorKind === "auth")
    return `Das App-Passwort wird nicht mehr angenommen (${w.error.replace(/\.$/, "")}). Bitte verbinden Sie den Kalender neu.`;
  if (w.errorKind === "garbage")
    return `Der Kalender-Server antwortet unerwartet (${w.error.replace(/\.$/, "")}); es gelten die zuletzt bekannten belegten Zeiten.`;
  return `Der Kalender ist nicht erreichbar (${w.error.replace(/\.$/, "")}); es gelten die zuletzt bekannten belegten Zeiten.`;
}

/** What the card says about a calendar edit (ADR 336): "im Kalender verschoben auf …". */
export type CalendarChange =
  | { kind: "moved"; start: string; end: string }
  | { kind: "deleted" }
  | null;

/** What a form of the account page's calendar section gets back. */
export type CalendarReply = {
  intent: string;
  result?: SubmissionResult<string[]>;
  message?: string;
  error?: string;
};
