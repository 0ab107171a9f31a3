import { createHash, randomBytes } from "node:crypto";
import type { EntryContext } from "react-router";
import { registerTestHooks } from "../platform/test-hooks.server";
import { acceptsGzip, deflateParts, gzipJoined } from "./render-cache-gzip.server";

/**
 * A cache of rendered HTML for the pages that opt in (`handle: { renderCache }` on the leaf route:
 * the landing page), ADR 160. The key holds everything the render reads: the build, the matched
 * routes, the URL (path + query) and the loader data of every match (configuration, theme, consent,
 * banner, affiliate, attribution, toast, the footer's year: all are loader data). Only a GET
 * answered 200 with no action data and no errors is cached, and only when the route's rule says
 * its data holds nothing personal (a visitor's own requests are never kept: erasure erases). The CSP
 * nonce is rendered as a per-process random placeholder and the fresh nonce is put back into every
 * response, so no two responses share a nonce.
 */

/** Bounds: at most this many pages and this many bytes (UTF-8 pages, keys included). */
export const MAX_ENTRIES = 100;
export const MAX_BYTES = 4 * 1024 * 1024;

/** Alphanumeric, so React writes it unescaped; unguessable, so no content can contain it. */
const PLACEHOLDER = `n${randomBytes(18).toString("hex")}`;

/** The page as UTF-8 bytes, split where the nonce goes (encoded once, not per response). */
type Entry = {
  key: string;
  parts: Buffer[];
  contentType: string;
  bytes: number;
  /** The parts deflated once, made on the first request that accepts gzip (ADR 161). */
  deflated?: Buffer[];
  /** Identity bodies whose writes are done, filled again instead of allocated (ADR 300). */
  spare?: Buffer[];
};
/** At most this many spare bodies per page (~31 KB each). */
const MAX_SPARE = 16;
const entries = new Map<string, Entry>();
const pending = new Map<string, Promise<Entry | null>>();
let totalBytes = 0;
const counts = { hits: 0, stores: 0 };

/**
 * A route's opt-in: `true`, or a rule over its own loader data that says whether this page may be
 * kept (false for pages showing personal data, which must not outlive an erasure in memory).
 */
export type RenderCacheRule = true | ((leafData: never) => boolean);

export type RenderInput = {
  request: Request;
  statusCode: number;
  headers: Headers;
  context: EntryContext;
  /** This response's CSP nonce. */
  nonce: string | undefined;
  /**
   * Called when the page is served from (or just stored in) the cache, with its key and the
   * header pairs of its identity and gzip responses (the landing fast path, ADR 300).
   */
  remember?: (key: string, headers: PageHeaderPairs) => void;
};
/** A cached page's response headers as Headers iterates them, without and with gzip. */
export type PageHeaderPairs = { identity: [string, string][]; gzip: [string, string][] };
/** Renders the document with the given nonce; `allReady`: resolve only once everything rendered. */
export type Render = (nonce: string | undefined, allReady: boolean) => Promise<Response>;

/**
 * A stable serialisation of loader data: keys sorted, Dates and undefined tagged. Anything it
 * cannot represent faithfully (Map, Set, Promise, class instances, functions, bigint) makes the
 * page uncacheable (null).
 */
export function stableSerialize(value: unknown): string | null {
  const out: string[] = [];
  const walk = (v: unknown, depth: number): boolean => {
    if (depth > 64) return false;
    if (v === null) out.push("null");
    else if (v === undefined) out.push("u");
    else if (typeof v === "string") out.push(JSON.stringify(v));
    else if (typeof v === "number") out.push(Number.isFinite(v) ? String(v) : `#${v}`);
    else if (typeof v === "boolean") out.push(v ? "true" : "false");
    else if (v instanceof Date) out.push(`D${v.getTime()}`);
    else if (Array.isArray(v)) {
      out.push("[");
      for (let i = 0; i < v.length; i++) {
        if (i) out.push(",");
        if (!(i in v) || !walk(v[i], depth + 1)) return false;
      }
      out.push("]");
    } else if (typeof v === "object" && isPlain(v)) {
      out.push("{");
      const keys = Object.keys(v).sort();
      for (let i = 0; i < keys.length; i++) {
        if (i) out.push(",");
        out.push(JSON.stringify(keys[i]), ":");
        if (!walk((v as Record<string, unknown>)[keys[i]], depth + 1)) return false;
      }
      out.push("}");
    } else return false;
    return true;
  };
  return walk(value, 0) ? out.join("") : null;
}

function isPlain(v: object) {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** The cache key of this document request, or null when it must be rendered fresh. */
export function renderCacheKey({
  request,
  statusCode,
  context,
  nonce,
}: RenderInput): string | null {
  // Development: Vite reloads components without a new entry module; render every time.
  if (import.meta.env.DEV) return null;
  const handler = context.staticHandlerContext;
  if (!nonce || request.method !== "GET" || statusCode !== 200 || context.isSpaMode) return null;
  if (handler.statusCode !== 200 || handler.actionData || handler.errors) return null;
  const matches = handler.matches;
  const leaf = matches[matches.length - 1]?.route.id;
  const handle = leaf ? (context.routeModules[leaf]?.handle as { renderCache?: unknown }) : null;
  const rule = handle?.renderCache;
  if (rule !== true && !(typeof rule === "function" && rule(handler.loaderData[leaf]) === true)) {
    return null;
  }
  const url = new URL(request.url);
  const data = stableSerialize(matches.map((m) => [m.route.id, handler.loaderData[m.route.id]]));
  if (data === null) return null;
  return createHash("sha256")
    .update(context.manifest.version)
    .update("\0")
    .update(url.pathname + url.search)
    .update("\0")
    .update(data)
    .digest("base64");
}

/**
 * The response headers of a cached page: the route's own (`headers`, e.g. a loader's Set-Cookie)
 * with the page's type and, for gzip, its encoding. Also what the landing fast path sends (as the
 * name/value pairs of a Headers object: lowercase, sorted, combined).
 */
export function pageHeaders(headers: Headers, contentType: string, gzip: boolean): Headers {
  headers.set("Content-Type", contentType);
  if (gzip) {
    // Already encoded: the compression middleware leaves it as it is.
    headers.set("Content-Encoding", "gzip");
    headers.append("Vary", "Accept-Encoding");
  }
  return headers;
}

/** The page's bytes with this response's nonce joined in (gzip: deflated once, ADR 161). */
function pageBody(entry: Entry, gzip: boolean, nonce: string | undefined): Buffer<ArrayBuffer> {
  const separator = Buffer.from(nonce ?? "");
  if (gzip) {
    if (!entry.deflated) {
      entry.deflated = deflateParts(entry.parts);
      const size = entry.deflated.reduce((sum, part) => sum + part.length, 0);
      entry.bytes += size;
      if (entries.get(entry.key) === entry) {
        totalBytes += size;
        evict();
      }
    }
    return gzipJoined(entry.parts, entry.deflated, separator);
  }
  const chunks: Buffer[] = [];
  for (const part of entry.parts) {
    if (chunks.length) chunks.push(separator);
    chunks.push(part);
  }
  return Buffer.concat(chunks);
}

function respond(entry: Entry, { request, statusCode, headers, nonce }: RenderInput) {
  const gzip = acceptsGzip(request.headers.get("accept-encoding"));
  const body = pageBody(entry, gzip, nonce);
  return new Response(body, {
    status: statusCode,
    headers: pageHeaders(headers, entry.contentType, gzip),
  });
}

/** Most recently used last (Map order is the LRU order); counted as a hit. */
function touch(key: string, entry: Entry) {
  entries.delete(key);
  entries.set(key, entry);
  counts.hits++;
}

/**
 * The body of the cached page under `key` with `nonce` joined in, served as a hit, for the
 * landing fast path (app/server/rendering/landing-fast-path.server.ts); null when it is no longer kept.
 * An identity body comes from the page's spares when one is free: `release` hands it back once the
 * socket is done with it (never while a write may still read it), so a hit allocates no new
 * 31 KB buffer (under load those were mmap'd and unmapped hundreds of times a second).
 */
export function cachedPageBody(
  key: string,
  nonce: string,
  gzip: boolean,
): { body: Buffer; release?: () => void } | null {
  const entry = entries.get(key);
  if (!entry) return null;
  touch(key, entry);
  if (gzip) return { body: pageBody(entry, true, nonce) };
  const separator = Buffer.from(nonce);
  let length = (entry.parts.length - 1) * separator.length;
  for (const part of entry.parts) length += part.length;
  entry.spare ??= [];
  const body = entry.spare.pop() ?? Buffer.allocUnsafeSlow(length);
  if (body.length !== length) return { body: pageBody(entry, false, nonce) };
  let offset = 0;
  for (let i = 0; i < entry.parts.length; i++) {
    if (i) offset += separator.copy(body, offset);
    offset += entry.parts[i].copy(body, offset);
  }
  const spare = entry.spare;
  return {
    body,
    release: () => {
      if (spare.length < MAX_SPARE) spare.push(body);
    },
  };
}

function store(key: string, entry: Entry) {
  if (entry.bytes > MAX_BYTES) return;
  const replaced = entries.get(key);
  if (replaced) {
    entries.delete(key);
    totalBytes -= replaced.bytes;
  }
  entries.set(key, entry);
  totalBytes += entry.bytes;
  counts.stores++;
  evict();
}

/** Drops the least recently used pages until both bounds hold. */
function evict() {
  for (const [oldest, old] of entries) {
    if (entries.size <= MAX_ENTRIES && totalBytes <= MAX_BYTES) break;
    entries.delete(oldest);
    totalBytes -= old.bytes;
  }
}

/**
 * Serves the document from the cache when it may, else renders it (`render`) and, when the
 * result is a complete 200 page, keeps it. Concurrent misses for one key render once.
 */
export async function renderWithCache(input: RenderInput, render: Render): Promise<Response> {
  const key = renderCacheKey(input);
  if (!key) return render(input.nonce, false);
  const hit = entries.get(key);
  if (hit) {
    touch(key, hit);
    remember(input, key, hit);
    return respond(hit, input);
  }
  let job = pending.get(key);
  if (!job) {
    job = (async () => {
      const response = await render(PLACEHOLDER, true);
      const html = await response.text();
      const parts = html.split(PLACEHOLDER).map((part) => Buffer.from(part));
      const entry: Entry = {
        key,
        parts,
        contentType: response.headers.get("Content-Type") ?? "text/html; charset=utf-8",
        bytes: parts.reduce((sum, part) => sum + part.length, key.length * 2),
      };
      if (response.status === 200 && !input.request.signal.aborted) store(key, entry);
      return response.status === 200 ? entry : null;
    })()
      // A render that throws is rendered again below, per request, and throws there.
      .catch(() => null)
      .finally(() => pending.delete(key));
    pending.set(key, job);
  }
  const entry = await job;
  // A failed render is not shared: this request renders its own (with its own nonce).
  if (!entry) return render(input.nonce, false);
  if (entries.get(key) === entry) remember(input, key, entry);
  return respond(entry, input);
}

/** Hands a kept page and its headers (before the page's own are set) to `input.remember`. */
function remember(input: RenderInput, key: string, entry: Entry) {
  if (!input.remember) return;
  const headers = (gzip: boolean) => [
    ...pageHeaders(new Headers(input.headers), entry.contentType, gzip),
  ];
  input.remember(key, { identity: headers(false), gzip: headers(true) });
}

/** For tests: pages and bytes held, responses served from the cache, pages stored. */
registerTestHooks({
  renderCacheStats: () => ({ entries: entries.size, bytes: totalBytes, ...counts }),
});
