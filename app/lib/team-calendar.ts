import { z } from "zod";
import { isMaskedUrl } from "./webhooks";

/**
 * The team's calendar (ADR 266): secret ICS feeds whose busy times block demo slots, and the
 * fixed video room every built-in booking gets unless an admin sets one on its card.
 */
export const MAX_BUSY_FEEDS = 10;

/** Who takes a demo: the whole team (one shared calendar) or the admins who take demos. */
export const DEMO_HOST_MODES = ["team", "admins"] as const;
export type DemoHostMode = (typeof DEMO_HOST_MODES)[number];

export const VIDEO_URL_INVALID = "Bitte geben Sie eine gültige https-Adresse ein (https://…)!";
export const VIDEO_URL_UNSAFE =
  "Die Adresse darf keine Leerzeichen, Steuerzeichen oder Anführungszeichen enthalten.";
/** Whitespace, control characters and quotes: they would break out of mails and .ics lines. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
const UNSAFE_URL_CHARS = /[\s\u0000-\u001f\u007f-\u009f"'<>`\\]/;
export const FEED_URL_INVALID =
  "Bitte geben Sie die geheime iCal-Adresse des Kalenders ein (https://…)!";

const isHttpUrl = (value: string, protocols: string[]) => {
  try {
    const url = new URL(value);
    return (
      protocols.includes(url.protocol) && url.hostname !== "" && !url.username && !url.password
    );
  } catch {
    return false;
  }
};

/** A video-call link: https only, no credentials, at most 2000 characters. */
export const VideoUrlSchema = z
  .string({ error: VIDEO_URL_INVALID })
  .trim()
  .max(2000, "Die Adresse ist zu lang (max. 2000 Zeichen).")
  .refine((v) => !UNSAFE_URL_CHARS.test(v), VIDEO_URL_UNSAFE)
  .refine((v) => isHttpUrl(v, ["https:"]), VIDEO_URL_INVALID);

/** An empty value means "none". */
export const OptionalVideoUrlSchema = z.preprocess(
  (v) => (v === undefined || v === null || (typeof v === "string" && v.trim() === "") ? null : v),
  VideoUrlSchema.nullable(),
);

/**
 * A feed URL: http(s) here (webcal:// is turned into https://); which scheme and host the server
 * may fetch is the SSRF rule of webhooks (address.server.ts). Encrypted at rest ("enc:v1:…").
 */
export const BusyFeedSchema = z.object({
  id: z
    .string({ error: "Ungültige Kalender-ID." })
    .regex(/^[A-Za-z0-9_-]{1,64}$/, "Ungültige Kalender-ID (Buchstaben, Ziffern, - und _)."),
  url: z
    .string({ error: FEED_URL_INVALID })
    .trim()
    .max(5000, FEED_URL_INVALID)
    .transform((v) => v.replace(/^webcals?:\/\//i, "https://"))
    .refine(
      (v) => v.startsWith("enc:v1:") || (!isMaskedUrl(v) && isHttpUrl(v, ["https:", "http:"])),
      FEED_URL_INVALID,
    ),
});
export type BusyFeed = z.infer<typeof BusyFeedSchema>;

export const TeamCalendarSchema = z
  .object({
    busyFeeds: z
      .array(BusyFeedSchema)
      .max(MAX_BUSY_FEEDS, `Höchstens ${MAX_BUSY_FEEDS} Kalender.`)
      .default([])
      .refine(
        (list) => new Set(list.map((f) => f.id)).size === list.length,
        "Jede Kalender-ID darf nur einmal vorkommen.",
      ),
    /** The fixed meeting room (https) for every built-in booking without its own link. */
    videoUrl: OptionalVideoUrlSchema.default(null),
    /**
     * Who takes a demo (ADR 338): "team" — one shared calendar, a slot is free when nobody's busy
     * calendar blocks it; "admins" — the admins who take demos (Account-Einstellungen), a slot is
     * free when at least one of them is free, and the booking goes to that admin.
     */
    demoHosts: z.enum(DEMO_HOST_MODES).catch("team").default("team"),
    /** The lead's name in the demo events written into the team's calendars (opt-in, ADR 336). */
    leadNameInEvents: z.boolean().catch(false).default(false),
  })
  .default({ busyFeeds: [], videoUrl: null, demoHosts: "team", leadNameInEvents: false });
export type TeamCalendar = z.infer<typeof TeamCalendarSchema>;

/** How a feed's state reads on the settings page and the dashboard. */
export type BusyFeedStatus = {
  id: string;
  /** Masked: scheme, host and the last four characters. */
  url: string;
  fetchedAt: string | null;
  checkedAt: string | null;
  lastError: string | null;
  busyCount: number;
};

/** "Stand: vor 5 Min" — the age of a feed's cache. */
export function feedAgeLabel(fetchedAt: string | null, now = Date.now()): string {
  if (!fetchedAt) return "Noch nicht abgerufen";
  const minutes = Math.max(0, (now - new Date(fetchedAt).getTime()) / 60_000);
  if (minutes < 1) return "Stand: gerade eben";
  if (minutes < 60) return `Stand: vor ${Math.floor(minutes)} Min`;
  if (minutes < 24 * 60) return `Stand: vor ${Math.floor(minutes / 60)} Std`;
  return `Stand: vor ${Math.floor(minutes / (24 * 60))} Tagen`;
}

/** When a failed feed last worked: "Letzter erfolgreicher Abruf: nie" or the age of its cache. */
export function lastSuccessLabel(fetchedAt: string | null, now = Date.now()): string {
  if (!fetchedAt) return "Letzter erfolgreicher Abruf: nie";
  return `Letzter erfolgreicher Abruf: ${feedAgeLabel(fetchedAt, now).replace(/^Stand: /, "")}`;
}

/**
 * A feed's stored error (the fetcher's technical text, shared with webhooks) in plain German for
 * the settings page and the dashboard: "ENOTFOUND" → "Adresse nicht gefunden", "HTTP 404" →
 * "Der Server antwortete mit 404". Texts that already read well (SSRF refusals, the warning of
 * an incomplete series) stay as they are.
 */
export function feedErrorLabel(error: string): string {
  const http = /^HTTP (\d{3})/.exec(error);
  if (http)
    return error.includes("Weiterleitung")
      ? `Der Server antwortete mit ${http[1]} (Weiterleitungen werden nicht verfolgt)`
      : `Der Server antwortete mit ${http[1]}`;
  const plain: [RegExp, string][] = [
    [/ENOTFOUND|EAI_AGAIN|EAI_NONAME|Keine Adresse gefunden/, "Adresse nicht gefunden"],
    [/Zeitüberschreitung|ETIMEDOUT|ESOCKETTIMEDOUT/, "Zeitüberschreitung"],
    [/ECONNREFUSED/, "Verbindung abgelehnt"],
    [/ECONNRESET|EPIPE|Abbruch:/, "Verbindung abgebrochen"],
    [/größer als/, "Antwort zu groß"],
    [/^Kein gültiger Kalender/, "Kein gültiger Kalender (ICS)"],
    [/CERT|SSL|TLS|self[- ]signed/i, "Zertifikat des Servers ungültig"],
    [/EHOSTUNREACH|ENETUNREACH/, "Server nicht erreichbar"],
  ];
  const hit = plain.find(([pattern]) => pattern.test(error));
  if (hit) return hit[1];
  if (error.startsWith("Verbindung fehlgeschlagen")) return "Verbindung fehlgeschlagen";
  return error.replace(/\.$/, "");
}

/** A feed is "down" when its last attempt failed (its last known busy times still count). */
export const feedIsDown = (s: Pick<BusyFeedStatus, "lastError">) => Boolean(s.lastError);

/** How the warning of a feed that answered but was cut off starts (busy-feeds.server.ts). */
export const FEED_INCOMPLETE_PREFIX = "Unvollständig:";

/** The feed answered, but a series was too long to expand: its busy times end early. */
export const feedIsIncomplete = (s: Pick<BusyFeedStatus, "lastError">) =>
  Boolean(s.lastError?.startsWith(FEED_INCOMPLETE_PREFIX));

/** The dashboard warning's headline for `feeds` (each unreachable or incomplete). */
export function busyFeedWarningHeadline(feeds: Pick<BusyFeedStatus, "lastError">[]): string {
  const one = feeds.length === 1;
  const incomplete = feeds.filter(feedIsIncomplete).length;
  if (incomplete === 0) {
    return one
      ? "Ein Kalender des Teams ist gerade nicht erreichbar."
      : `${feeds.length} Kalender des Teams sind gerade nicht erreichbar.`;
  }
  if (incomplete === feeds.length) {
    return one
      ? "Ein Kalender des Teams ist nur unvollständig eingelesen."
      : `${feeds.length} Kalender des Teams sind nur unvollständig eingelesen.`;
  }
  return `${feeds.length} Kalender des Teams brauchen Ihre Aufmerksamkeit.`;
}

/** A subscription link of the demo feed as listed on the settings page (never its token). */
export type FeedLinkView = {
  id: number;
  createdAt: string;
  lastUsedAt: string | null;
  createdBy: string;
};

/** What the links card shows after a post: a new subscription link, once. */
export type TeamCalendarFormState = { feedLink: string };
