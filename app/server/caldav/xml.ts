import { XMLParser } from "fast-xml-parser";

/**
 * WebDAV/CalDAV XML (RFC 4918, 4791, 6578, 6764) — pure: text in, plain JSON out (ADR 335). The
 * answers come from a server an admin named, so nothing here trusts them: a DOCTYPE (entity
 * declarations) is refused before parsing, the text is size-capped by the caller, and every value
 * read is checked for its type. Namespace prefixes are dropped (`d:href`, `D:href` → `href`): the
 * DAV and CalDAV names read here do not collide.
 */

export class DavXmlError extends Error {
  override name = "DavXmlError";
}

const ARRAYS = new Set(["response", "propstat", "href", "comp", "report", "supported-report"]);

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ARRAYS.has(name),
});

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);
const text = (v: unknown): string | null => {
  if (typeof v === "string") return v;
  if (isNode(v) && typeof v["#text"] === "string") return v["#text"];
  return null;
};

/** One `<response>`: its href, status and the properties found (200) per name. */
export type DavResponse = {
  href: string;
  /** The response's own status code (sync-collection: 404 = the member was removed). */
  status: number | null;
  /** Properties of a 2xx propstat, by local name (the raw parsed node). */
  props: Record<string, unknown>;
};

export type Multistatus = { responses: DavResponse[]; syncToken: string | null };

const statusCode = (line: unknown): number | null => {
  const m = /^HTTP\/\d(?:\.\d)?\s+(\d{3})/.exec(text(line) ?? "");
  return m ? Number(m[1]) : null;
};

/** Parses an XML document; throws DavXmlError on malformed text or a DOCTYPE. */
export function parseXml(body: string): Node {
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) throw new DavXmlError("XML mit DOCTYPE abgelehnt.");
  let parsed: unknown;
  try {
    parsed = parser.parse(body, true);
  } catch (error) {
    throw new DavXmlError(
      `Ungültiges XML: ${error instanceof Error ? error.message.slice(0, 80) : "unlesbar"}`,
    );
  }
  if (!isNode(parsed)) throw new DavXmlError("Ungültiges XML.");
  return parsed;
}

/** A 207 Multi-Status body; throws DavXmlError when it is none. */
export function parseMultistatus(body: string): Multistatus {
  const root = parseXml(body).multistatus;
  if (!isNode(root) && root !== "") throw new DavXmlError("Keine Multi-Status-Antwort.");
  const node = isNode(root) ? root : {};
  const responses: DavResponse[] = [];
  for (const r of asArray(node.response)) {
    if (!isNode(r)) continue;
    const href = text(asArray(r.href)[0]);
    if (!href) continue;
    const props: Record<string, unknown> = {};
    for (const ps of asArray(r.propstat)) {
      if (!isNode(ps)) continue;
      const code = statusCode(ps.status);
      if (code !== null && (code < 200 || code >= 300)) continue;
      if (isNode(ps.prop)) Object.assign(props, ps.prop);
    }
    responses.push({ href, status: statusCode(r.status), props });
  }
  return { responses, syncToken: text(node["sync-token"]) };
}

/** The first href inside a property (`<current-user-principal><href>…`). */
export function hrefIn(prop: unknown): string | null {
  if (!isNode(prop)) return null;
  return text(asArray(prop.href)[0]);
}

/** Whether a `<resourcetype>` names `calendar`. */
export const isCalendarResource = (resourcetype: unknown) =>
  isNode(resourcetype) && "calendar" in resourcetype;

/** `<supported-calendar-component-set><comp name="VEVENT"/>…` → ["VEVENT", …]. */
export function componentsOf(prop: unknown): string[] {
  if (!isNode(prop)) return [];
  return asArray(prop.comp)
    .map((c) => (isNode(c) && typeof c["@_name"] === "string" ? c["@_name"].toUpperCase() : null))
    .filter((c): c is string => c !== null);
}

/** `<supported-report-set>` → the local names of the reports offered. */
export function reportsOf(prop: unknown): string[] {
  if (!isNode(prop)) return [];
  const names: string[] = [];
  for (const sr of asArray(prop["supported-report"])) {
    if (!isNode(sr)) continue;
    for (const report of asArray(sr.report)) {
      if (isNode(report)) names.push(...Object.keys(report).filter((k) => !k.startsWith("@_")));
      else if (typeof report === "string" && report) names.push(report);
    }
  }
  return names;
}

/** A text property (`displayname`, `getetag`, `calendar-data`), or null. */
export const textProp = (prop: unknown): string | null => text(prop);

/** Whether an error body names a precondition (`<valid-sync-token/>`). */
export function namesPrecondition(body: string, name: string): boolean {
  try {
    const root = parseXml(body).error;
    return isNode(root) && name in root;
  } catch {
    return false;
  }
}

// ---------- request bodies ----------

const XML_HEAD = '<?xml version="1.0" encoding="utf-8"?>';
const NS = 'xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"';

/** Escapes text for an XML body. */
export const xmlEscape = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

export const PRINCIPAL_BODY = `${XML_HEAD}<d:propfind ${NS}><d:prop><d:current-user-principal/></d:prop></d:propfind>`;
export const HOME_BODY = `${XML_HEAD}<d:propfind ${NS}><d:prop><c:calendar-home-set/></d:prop></d:propfind>`;
export const CALENDARS_BODY = `${XML_HEAD}<d:propfind ${NS}><d:prop><d:resourcetype/><d:displayname/><c:supported-calendar-component-set/><d:supported-report-set/></d:prop></d:propfind>`;
export const ETAGS_BODY = `${XML_HEAD}<d:propfind ${NS}><d:prop><d:getetag/></d:prop></d:propfind>`;

/** iCalendar UTC form of an instant: 20261206T090000Z. */
export const icalUtc = (date: Date) =>
  date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** calendar-query: the events overlapping [from, to) with their data (expanded on our side). */
export const calendarQueryBody = (from: Date, to: Date) =>
  `${XML_HEAD}<c:calendar-query ${NS}><d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range start="${icalUtc(from)}" end="${icalUtc(to)}"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;

/** free-busy-query (RFC 4791 §7.10): a VFREEBUSY for [from, to). */
export const freeBusyQueryBody = (from: Date, to: Date) =>
  `${XML_HEAD}<c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="${icalUtc(from)}" end="${icalUtc(to)}"/></c:free-busy-query>`;

/** sync-collection (RFC 6578): the changes since `token` ("" = everything, the initial sync). */
export const syncCollectionBody = (token: string) =>
  `${XML_HEAD}<d:sync-collection ${NS}><d:sync-token>${xmlEscape(token)}</d:sync-token><d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;

/** calendar-multiget: the data of the named resources. */
export const multigetBody = (hrefs: string[]) =>
  `${XML_HEAD}<c:calendar-multiget ${NS}><d:prop><d:getetag/><c:calendar-data/></d:prop>${hrefs
    .map((h) => `<d:href>${xmlEscape(h)}</d:href>`)
    .join("")}</c:calendar-multiget>`;
