/** Shared formatters (pure, isomorphic): de-DE dates in Europe/Berlin, sizes, ids, summaries. */

import { isPlainSummary } from "./plain-summary";

const TIME_ZONE = "Europe/Berlin";

const dateFormat = new Intl.DateTimeFormat("de-DE", {
  timeZone: TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});
const dateTimeFormat = new Intl.DateTimeFormat("de-DE", {
  timeZone: TIME_ZONE,
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

const timeFormat = new Intl.DateTimeFormat("de-DE", {
  timeZone: TIME_ZONE,
  hour: "2-digit",
  minute: "2-digit",
});
const longDayFormat = new Intl.DateTimeFormat("de-DE", {
  timeZone: TIME_ZONE,
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
});

const yearFormat = new Intl.DateTimeFormat("de-DE", { timeZone: TIME_ZONE, year: "numeric" });

const toDate = (value: Date | string | number) => (value instanceof Date ? value : new Date(value));

/** "22.11.2026" */
export function formatDate(value: Date | string | number): string {
  return dateFormat.format(toDate(value));
}

/** Berlin's switch from local mean time to CET (1893-04-01 00:00 local = 1893-03-31 23:00 UTC). */
const WHOLE_HOURS_SINCE = Date.UTC(1893, 3, 1);

let lastYear: { hour: number; year: string } | undefined;

/**
 * "2026": the year in Berlin (the footer's ©; the server's year, so the hydration matches). A year
 * begins on a whole UTC hour (see formatDateTime), so the last hour's answer is kept: the landing
 * page asks for every request, and Intl's format was 2–3 % of its CPU under load (ADR 360).
 */
export function formatYear(value: Date | string | number): string {
  const ms = toDate(value).getTime();
  if (!(ms >= WHOLE_HOURS_SINCE)) return yearFormat.format(ms);
  const hour = Math.floor(ms / 3_600_000);
  if (lastYear?.hour !== hour) lastYear = { hour, year: yearFormat.format(ms) };
  return lastYear.year;
}

/** "22.11.2026, 10:" of a UTC hour (ms / 3,600,000), a bounded memo for formatDateTime. */
const hourPrefixes = new Map<number, string>();

/**
 * "22.11.2026, 10:15". Berlin has been a whole number of hours off UTC since 1 April 1893 (CET, CEST,
 * 1945–49's +3 too), so an instant's minute is its UTC minute and the rest is the same for its
 * whole UTC hour: that part is formatted once per hour (the CSV export formats two dates per row,
 * a million rows mostly share their hours; Intl's format was 13 % of its CPU).
 */
export function formatDateTime(value: Date | string | number): string {
  const ms = toDate(value).getTime();
  // Before 1 April 1893 Berlin kept local mean time (+0:53:28): Intl alone (and its RangeError).
  if (!(ms >= WHOLE_HOURS_SINCE)) return dateTimeFormat.format(ms);
  const hour = Math.floor(ms / 3_600_000);
  let prefix = hourPrefixes.get(hour);
  if (prefix === undefined) {
    prefix = dateTimeFormat.format(ms).slice(0, -2);
    if (hourPrefixes.size >= 4096) hourPrefixes.clear();
    hourPrefixes.set(hour, prefix);
  }
  const minute = Math.floor(ms / 60_000) - hour * 60;
  return minute < 10 ? `${prefix}0${minute}` : `${prefix}${minute}`;
}

/** "14:30" */
export function formatTime(value: Date | string | number): string {
  return timeFormat.format(toDate(value));
}

/** "Donnerstag, 3. Dezember 2026" (the Berlin date of an instant). */
export function formatLongDay(value: Date | string | number): string {
  return longDayFormat.format(toDate(value));
}

/** Bytes, KB, MB with 1024 per step: "512 Bytes", "1,5 KB", "9,9 MB". */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024)
    return `${Math.max(0, Math.round(bytes || 0))} Bytes`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${formatDecimal(kb)} KB`;
  return `${formatDecimal(kb / 1024)} MB`;
}

/** Megabytes with one decimal (the upload error messages): 10485760 -> "10", 11010048 -> "10,5". */
export function formatMegabytes(bytes: number): string {
  return formatDecimal(bytes / (1024 * 1024));
}

/**
 * An attachment's size in MB for the admin views, two decimals so that no file shows "0 MB":
 * 10485760 -> "10 MB", 5000 -> "< 0,01 MB", 52429 -> "0,05 MB", 0 -> "0 MB".
 */
export function formatAttachmentSize(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (bytes > 0 && mb < 0.005) return "< 0,01 MB";
  const rounded = Math.round(mb * 100) / 100;
  return `${new Intl.NumberFormat("de-DE", { maximumFractionDigits: 2 }).format(rounded)} MB`;
}

function formatDecimal(n: number): string {
  return new Intl.NumberFormat("de-DE", { maximumFractionDigits: 1 }).format(
    Math.round(n * 10) / 10,
  );
}

/** Request id padded to 4 digits: 7 -> "0007". */
export function formatRequestId(id: number): string {
  return String(id).padStart(4, "0");
}

export const SUMMARY_FALLBACK_LENGTH = 120;

/**
 * The summary, or the first 120 characters of the description when no summary exists — or when
 * the stored one is no plain text (an AI answer such as `{}`, lib/plain-summary.ts).
 */
export function summaryOf(request: {
  summary?: string | null;
  description?: string | null;
}): string {
  const summary = request.summary?.trim();
  if (isPlainSummary(summary)) return summary;
  return (request.description ?? "").trim().slice(0, SUMMARY_FALLBACK_LENGTH);
}

/**
 * `text` cut to at most `max` characters at a word boundary, with "…" when cut (a single word
 * longer than `max` is cut inside it). Trailing punctuation before the cut is dropped.
 */
export function cutAtWord(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const room = clean.slice(0, max);
  const space = room.lastIndexOf(" ");
  const cut = space > max / 2 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s,;:.\-–]+$/, "")}…`;
}

/** A list preview: the summary, else the whole description, cut at a word (see `cutAtWord`). */
export function summaryPreview(
  request: { summary?: string | null; description?: string | null },
  max = 140,
): string {
  const summary = request.summary?.trim();
  return cutAtWord(isPlainSummary(summary) ? summary : (request.description ?? ""), max);
}
