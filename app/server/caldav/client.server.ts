import type { CaldavCalendarInfo } from "~db/schema";
import type { JobPriority } from "../calendar-worker/calendar-worker.server";
import type { BusySpan } from "../calendar-worker/job";
import { busyOfObjects, CalendarUnread, freeBusySpans } from "./calendar-data";
import { type DavAnswer, type DavFailure, davRequest, isCalendar, isXml } from "./http.server";
import {
  CALENDARS_BODY,
  calendarQueryBody,
  componentsOf,
  DavXmlError,
  ETAGS_BODY,
  freeBusyQueryBody,
  HOME_BODY,
  hrefIn,
  isCalendarResource,
  type Multistatus,
  namesPrecondition,
  PRINCIPAL_BODY,
  parseMultistatus,
  reportsOf,
  syncCollectionBody,
  textProp,
} from "./xml";

/**
 * The CalDAV client (RFC 4791, 4918, 6578, 6764; ADR 335): a thin layer over `davRequest` (SSRF
 * rules on every hop, size cap, deadline) and fast-xml-parser. Every function returns a result
 * or a `DavFailure` with a kind — it never throws for what a server answered; the iCalendar text
 * is read by the pure functions of calendar-data.ts (the calendar worker's, once it lands).
 */
export type DavAccount = { username: string; password: string };
export type Fail = DavFailure;

const fail = (kind: DavFailure["kind"], error: string, status?: number): DavFailure =>
  status === undefined ? { ok: false, kind, error } : { ok: false, kind, error, status };

/** 401/403 as failures of their own kind; other statuses outside `expected` as "http". */
function statusFailure(answer: DavAnswer, expected: number[]): DavFailure | null {
  if (expected.includes(answer.status)) return null;
  if (answer.status === 401) return fail("auth", "Anmeldung abgelehnt (401).", 401);
  if (answer.status === 403) return fail("forbidden", "Zugriff verweigert (403).", 403);
  return fail("http", `Der Server antwortete mit ${answer.status}.`, answer.status);
}

/** A 207 answer's multistatus, or the failure (status, content type, XML). */
async function multistatus(
  url: string,
  method: "PROPFIND" | "REPORT",
  depth: "0" | "1",
  body: string,
  account: DavAccount,
  deadline: number,
): Promise<(Multistatus & { url: string }) | DavFailure> {
  const answer = await davRequest(url, {
    method,
    headers: { depth, "content-type": 'application/xml; charset="utf-8"' },
    body,
    auth: account,
    deadline,
  });
  if (!answer.ok) return answer;
  const refused = statusFailure(answer, [207]);
  if (refused) return refused;
  if (!isXml(answer.headers))
    return fail(
      "garbage",
      `Unerwarteter Inhaltstyp: ${String(answer.headers["content-type"] ?? "keiner").slice(0, 60)}.`,
    );
  try {
    return { ...parseMultistatus(answer.body), url: answer.url };
  } catch (error) {
    return fail("garbage", error instanceof DavXmlError ? error.message : "Ungültiges XML.");
  }
}

const resolve = (href: string, base: string) => new URL(href, base).toString();
const sameResource = (a: string, b: string) =>
  decodeURIComponent(new URL(a).pathname).replace(/\/$/, "") ===
  decodeURIComponent(new URL(b).pathname).replace(/\/$/, "");

export type Discovery = { principalUrl: string; homeUrl: string; calendars: CaldavCalendarInfo[] };

const NO_PRINCIPAL = "Kein current-user-principal.";

/** Where the principal may be asked: the typed URL, RFC 6764's well-known URL, the root. */
function candidates(serverUrl: string): string[] {
  const url = new URL(serverUrl);
  const list = [
    url.pathname !== "/" ? url.toString() : null,
    new URL("/.well-known/caldav", url).toString(),
    new URL("/", url).toString(),
  ];
  return [...new Set(list.filter((u): u is string => u !== null))];
}

/**
 * Discovery: current-user-principal (typed URL, /.well-known/caldav, /), calendar-home-set, and
 * the calendars in the home with their components and reports. Failures name what failed.
 */
export async function discover(
  serverUrl: string,
  account: DavAccount,
  deadline: number,
): Promise<({ ok: true } & Discovery) | DavFailure> {
  let principalUrl: string | null = null;
  let last: DavFailure = fail("http", "Kein CalDAV-Server gefunden.");
  for (const candidate of candidates(serverUrl)) {
    const found = await multistatus(candidate, "PROPFIND", "0", PRINCIPAL_BODY, account, deadline);
    if ("ok" in found) {
      // Login, TLS, DNS and the rules fail the same way at every candidate: stop at once.
      if (found.kind !== "http" && found.kind !== "garbage") return found;
      last = found;
      continue;
    }
    const href = found.responses
      .map((r) => hrefIn(r.props["current-user-principal"]))
      .find(Boolean);
    if (href) {
      principalUrl = resolve(href, found.url);
      break;
    }
    last = fail("garbage", NO_PRINCIPAL);
  }
  // Nothing but 404s or answers without a principal: no account; garbage is named as such.
  if (!principalUrl)
    return last.kind === "http" || last.error === NO_PRINCIPAL
      ? fail("garbage", "Kein Benutzerkonto (current-user-principal) gefunden.")
      : last;
  const home = await multistatus(principalUrl, "PROPFIND", "0", HOME_BODY, account, deadline);
  if ("ok" in home) return home;
  const homeHref = home.responses.map((r) => hrefIn(r.props["calendar-home-set"])).find(Boolean);
  const homeUrl = homeHref ? resolve(homeHref, home.url) : principalUrl;
  const listed = await multistatus(homeUrl, "PROPFIND", "1", CALENDARS_BODY, account, deadline);
  if ("ok" in listed) return listed;
  const calendars: CaldavCalendarInfo[] = [];
  for (const r of listed.responses) {
    if (!isCalendarResource(r.props.resourcetype)) continue;
    const url = resolve(r.href, listed.url);
    const reports = reportsOf(r.props["supported-report-set"]);
    const name =
      textProp(r.props.displayname)?.slice(0, 100) ||
      decodeURIComponent(new URL(url).pathname.split("/").filter(Boolean).pop() ?? "Kalender");
    calendars.push({
      url,
      name,
      components: componentsOf(r.props["supported-calendar-component-set"]),
      freeBusyQuery: reports.includes("free-busy-query"),
      syncCollection: reports.includes("sync-collection"),
    });
  }
  return { ok: true, principalUrl, homeUrl, calendars: calendars.slice(0, 50) };
}

/** A calendar that holds events (VEVENT, or no component set announced). */
export const holdsEvents = (c: CaldavCalendarInfo) =>
  c.components.length === 0 || c.components.includes("VEVENT");

/**
 * The busy times of one calendar in [from, to): free-busy-query where the calendar offers it
 * (the demos the portal wrote, `own`, subtracted), else a time-range calendar-query whose events
 * are expanded on our side (the own demos skipped by UID).
 */
export async function busyTimes(
  calendar: Pick<CaldavCalendarInfo, "url" | "freeBusyQuery">,
  from: Date,
  to: Date,
  account: DavAccount,
  deadline: number,
  own: { uid: string; start: number; end: number }[] = [],
  priority: JobPriority = "lookup",
): Promise<{ ok: true; spans: BusySpan[]; warning: string | null } | DavFailure> {
  // The worker's queue (ADR 356): the job's class, and the same deadline as the network's.
  const work = { priority, deadline };
  if (calendar.freeBusyQuery) {
    const answer = await davRequest(calendar.url, {
      method: "REPORT",
      headers: { depth: "1", "content-type": 'application/xml; charset="utf-8"' },
      body: freeBusyQueryBody(from, to),
      auth: account,
      deadline,
    });
    if (!answer.ok) return answer;
    const refused = statusFailure(answer, [200]);
    if (refused) return refused;
    if (!isCalendar(answer.headers))
      return fail("garbage", "Unerwarteter Inhaltstyp der Frei/Belegt-Antwort.");
    try {
      // Read by the calendar worker like every answer of a calendar server (ADR 320).
      const spans = await freeBusySpans(answer.body, from.getTime(), to.getTime(), work);
      return { ok: true, spans: subtract(spans, own), warning: null };
    } catch (error) {
      // The worker had no time for it (ADR 356): no fault of the calendar's answer.
      if (
        error instanceof CalendarUnread &&
        (error.reason === "busy" || error.reason === "deadline")
      )
        return fail("timeout", error.message);
      return fail("garbage", "Ungültige Frei/Belegt-Antwort (iCalendar).");
    }
  }
  const found = await multistatus(
    calendar.url,
    "REPORT",
    "1",
    calendarQueryBody(from, to),
    account,
    deadline,
  );
  if ("ok" in found) return found;
  const objects = found.responses
    .map((r) => textProp(r.props["calendar-data"]))
    .filter((t): t is string => Boolean(t));
  // Untrusted iCalendar: its recurring events are expanded by the calendar worker (ADR 320).
  const busy = await busyOfObjects(
    objects,
    from.getTime(),
    to.getTime(),
    own.map((o) => o.uid),
    work,
  );
  if (busy.failed) return fail(busy.overloaded ? "timeout" : "garbage", busy.failed);
  const warning =
    busy.invalid > 0
      ? `${busy.invalid} ${busy.invalid === 1 ? "Termin war" : "Termine waren"} nicht lesbar (iCalendar).`
      : busy.cutOff > 0
        ? "Unvollständig: ein Serientermin hat zu viele Wiederholungen."
        : null;
  return { ok: true, spans: busy.spans, warning };
}

/** The spans minus the exact intervals of the own demos (free-busy answers cannot skip them). */
function subtract(spans: BusySpan[], own: { start: number; end: number }[]): BusySpan[] {
  let result = spans;
  for (const o of own) {
    result = result.flatMap((s) => {
      if (o.end <= s.start || o.start >= s.end) return [s];
      const parts: BusySpan[] = [];
      if (s.start < o.start) parts.push({ start: s.start, end: o.start });
      if (o.end < s.end) parts.push({ start: o.end, end: s.end });
      return parts;
    });
  }
  return result;
}

const etagOf = (answer: DavAnswer) =>
  typeof answer.headers.etag === "string" ? answer.headers.etag : null;

/** GET one event: its text and ETag; `gone` when it no longer exists. */
export async function getEvent(
  href: string,
  account: DavAccount,
  deadline: number,
): Promise<
  | { ok: true; gone: true }
  | { ok: true; gone: false; text: string; etag: string | null }
  | DavFailure
> {
  const answer = await davRequest(href, { method: "GET", auth: account, deadline });
  if (!answer.ok) return answer;
  if (answer.status === 404 || answer.status === 410) return { ok: true, gone: true };
  const refused = statusFailure(answer, [200]);
  if (refused) return refused;
  if (!isCalendar(answer.headers)) return fail("garbage", "Unerwarteter Inhaltstyp des Termins.");
  return { ok: true, gone: false, text: answer.body, etag: etagOf(answer) };
}

/** The ETag of one resource (after a PUT that did not return one). */
async function etagAt(href: string, account: DavAccount, deadline: number) {
  const found = await multistatus(href, "PROPFIND", "0", ETAGS_BODY, account, deadline);
  if ("ok" in found) return null;
  return found.responses.map((r) => textProp(r.props.getetag)).find(Boolean) ?? null;
}

export type PutResult =
  | { ok: true; etag: string | null }
  /** 412: the resource exists (create) or changed since `etag` (update). */
  | { ok: false; kind: "precondition"; error: string; status: 412 };

/**
 * Writes an event: create with `If-None-Match: *`, update with `If-Match: <etag>`. A 412 comes
 * back as "precondition" for the caller to resolve (read the current state, then decide).
 */
export async function putEvent(
  href: string,
  text: string,
  etag: string | null,
  account: DavAccount,
  deadline: number,
): Promise<PutResult | DavFailure> {
  const answer = await davRequest(href, {
    method: "PUT",
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      ...(etag ? { "if-match": etag } : { "if-none-match": "*" }),
    },
    body: text,
    auth: account,
    deadline,
  });
  if (!answer.ok) return answer;
  if (answer.status === 412)
    return {
      ok: false,
      kind: "precondition",
      error: "Vorbedingung fehlgeschlagen (412).",
      status: 412,
    };
  const refused = statusFailure(answer, [200, 201, 204]);
  if (refused) return refused;
  return { ok: true, etag: etagOf(answer) ?? (await etagAt(href, account, deadline)) };
}

/** Deletes an event; one that is already gone counts as deleted. */
export async function deleteEvent(
  href: string,
  account: DavAccount,
  deadline: number,
): Promise<{ ok: true } | DavFailure> {
  const answer = await davRequest(href, { method: "DELETE", auth: account, deadline });
  if (!answer.ok) return answer;
  if (answer.status === 404 || answer.status === 410) return { ok: true };
  const refused = statusFailure(answer, [200, 202, 204]);
  return refused ?? { ok: true };
}

/** What changed in a calendar: members with their ETag, removed members, the next token. */
export type Changes = {
  changed: { href: string; etag: string | null }[];
  removed: string[];
  /** The new sync token; null without sync-collection (a full listing each time). */
  token: string | null;
  /** A full listing (initial sync, no sync-collection, or an invalid token): absent = removed. */
  complete: boolean;
};

/**
 * The changes of a calendar since `token`: sync-collection (RFC 6578) where offered — an invalid
 * token (`valid-sync-token`) starts a full resync —, else a Depth-1 getetag listing.
 */
export async function changesSince(
  calendar: Pick<CaldavCalendarInfo, "url" | "syncCollection">,
  token: string | null,
  account: DavAccount,
  deadline: number,
): Promise<({ ok: true } & Changes) | DavFailure> {
  if (calendar.syncCollection) {
    const answer = await davRequest(calendar.url, {
      method: "REPORT",
      headers: { depth: "0", "content-type": 'application/xml; charset="utf-8"' },
      body: syncCollectionBody(token ?? ""),
      auth: account,
      deadline,
    });
    if (!answer.ok) return answer;
    if (
      token &&
      (answer.status === 403 || answer.status === 409) &&
      namesPrecondition(answer.body, "valid-sync-token")
    )
      return changesSince(calendar, null, account, deadline);
    const refused = statusFailure(answer, [207]);
    if (refused) return refused;
    if (!isXml(answer.headers)) return fail("garbage", "Unerwarteter Inhaltstyp.");
    let parsed: Multistatus;
    try {
      parsed = parseMultistatus(answer.body);
    } catch (error) {
      return fail("garbage", error instanceof DavXmlError ? error.message : "Ungültiges XML.");
    }
    return {
      ok: true,
      ...split(parsed, answer.url, calendar.url),
      token: parsed.syncToken,
      complete: !token,
    };
  }
  const listed = await multistatus(calendar.url, "PROPFIND", "1", ETAGS_BODY, account, deadline);
  if ("ok" in listed) return listed;
  return { ok: true, ...split(listed, listed.url, calendar.url), token: null, complete: true };
}

function split(found: Multistatus, base: string, collection: string) {
  const changed: Changes["changed"] = [];
  const removed: string[] = [];
  for (const r of found.responses) {
    const href = resolve(r.href, base);
    if (sameResource(href, collection)) continue;
    if (r.status === 404 || r.status === 410) removed.push(href);
    else changed.push({ href, etag: textProp(r.props.getetag) });
  }
  return { changed, removed };
}

/** Whether two URLs name the same resource (hrefs come back encoded or not). */
export { sameResource };
