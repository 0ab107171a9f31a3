import type { RouteConfigEntry } from "@react-router/dev/routes";
import type { ServerBuild } from "react-router";
import { API_SCOPES, type ApiScope } from "~/lib/api-tokens";
import type { TestHooks } from "~/server/platform/test-hooks.server";
import routes from "../../app/routes";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/**
 * Who may call a method: anyone, an admin, an admin whose first password change (or 2FA enrolment)
 * is pending, or an admin whose 2FA enrolment (but not the password change) is pending.
 */
export type Access = "public" | "admin" | "admin-pending" | "admin-enrol";
export type Classification =
  /** An HTML page: `admin` pages redirect to the login without a session. */
  | { page: "public" | "admin"; post?: Access }
  /** A resource route: the access of each method it answers (others: 405 or 404). */
  | { api: Partial<Record<Method, Access>> };

/**
 * Every page and every resource route outside `/api` of app/routes.ts, classified (ADR 080). A
 * route that is missing here fails the route-matrix test: whoever adds a route decides who may call
 * it. The `/api` routes are not listed: their modules say it (`apiTable`, ADR 306).
 */
export const CLASSIFICATION: Record<string, Classification> = {
  "": { page: "public", post: "public" },
  // The contact form alone for a frame on the agency's website (ADR 283); its post needs the
  // signed token the page renders (no token: 403), no session.
  embed: { page: "public", post: "public" },
  "preferences/theme": { page: "public", post: "public" },
  "preferences/consent": { page: "public", post: "public" },
  "preferences/banner": { page: "public", post: "public" },
  termin: { page: "public", post: "public" },
  "anfrage-zurueckziehen": { page: "public", post: "public" },
  "termin/kalender": { api: { GET: "public" } },
  // Guarded by the signed link in its query (no token: 400), not by a session.
  "termin/verwalten": { page: "public", post: "public" },
  // Guarded by the signed link in its query (no token: 404), not by a session.
  "meine-anfrage": { page: "public" },
  // The accessibility statement; its feedback form posts without a session (ADR 340).
  barrierefreiheit: { page: "public", post: "public" },
  healthz: { api: { GET: "public" } },
  // The agency's logo (ADRs 268, 293): public like the page it appears on; 404 while none is set.
  "branding/logo": { api: { GET: "public" } },
  "admin/login": { page: "public", post: "public" },
  "admin/logout": { page: "public", post: "public" },
  "admin/register": { page: "public", post: "public" },
  "admin/forgot-password": { page: "public", post: "public" },
  "admin/reset-password": { page: "public", post: "public" },
  // Guarded by the signed link in its query (no token: 400), not by a session.
  "admin/account/email-confirm": { page: "public", post: "public" },
  "admin/": { page: "admin" },
  "admin/dashboard": { page: "admin", post: "admin" },
  "admin/requests": { page: "admin", post: "admin" },
  // The pipeline's board (ADR 347) and the admin's tasks (ADR 351).
  "admin/requests/board": { page: "admin", post: "admin" },
  "admin/aufgaben": { page: "admin", post: "admin" },
  // JSON for a list row's expand button (ADR 190), guarded like the admin pages (login redirect).
  "admin/requests/:id/details": { page: "admin" },
  // Guarded by the feed token in its query (no token: 404), not by a session (ADR 267).
  "admin/kalender.ics": { api: { GET: "public" } },
  "admin/appointments": { page: "admin", post: "admin" },
  "admin/appointments/:id/verschieben": { page: "admin", post: "admin" },
  "admin/users": { page: "admin", post: "admin" },
  "admin/affiliate-codes": { page: "admin", post: "admin" },
  "admin/settings": { page: "admin", post: "admin" },
  "admin/settings/outbox": { page: "admin", post: "admin" },
  "admin/settings/barrierefreiheit": { page: "admin", post: "admin" },
  "admin/change-password": { page: "admin", post: "admin-pending" },
  "admin/account": { page: "admin", post: "admin" },
  "admin/legacy": { page: "admin", post: "admin" },
  "admin/audit": { page: "admin" },
  // The audit log as CSV (a resource route guarded like the admin pages: login redirect).
  "admin/audit.csv": { page: "admin" },
  "*": { page: "public" },
};

export type RoutePath = { pattern: string; file: string };

/** The URL patterns of app/routes.ts (layouts contribute no segment; an index its parent's path). */
export function routePatterns(): RoutePath[] {
  const out: RoutePath[] = [];
  const walk = (entries: RouteConfigEntry[], parent: string) => {
    for (const entry of entries) {
      // The landing page's path "/" is the root pattern "".
      const own = (entry.path ?? "").replace(/^\/+/, "");
      const full = own ? (parent ? `${parent}/${own}` : own) : parent;
      if (entry.children?.length) walk(entry.children, full);
      else out.push({ pattern: entry.index && full ? `${full}/` : full, file: entry.file });
    }
  };
  walk(routes, "");
  return out;
}

/** A concrete URL for a pattern: parameters become ids that exist nowhere. */
export function concretePath(pattern: string) {
  const path = pattern.replace(/:[A-Za-z]+/g, "999999").replace(/\*$/, "unbekannt");
  return `/${path.replace(/\/$/, "")}`;
}

export const METHODS: readonly Method[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** What an API token meets: a scope it needs, never (`session`: 401) or nobody looks (`public`). */
export type TokenAccess = ApiScope | "session" | "public";
export type ApiCall = { access: Access; token: TokenAccess };
/** The `/api` routes: per pattern, the methods they answer and who may call them. */
export type ApiTable = Record<string, Partial<Record<Method, ApiCall>>>;

/** The test hook of app/server/http/api-route.server.ts (from the build or the sources). */
export type DescribeApiCall = TestHooks["describeApiCall"];

type RouteModule = { loader?: unknown; action?: unknown };

/**
 * The `/api` table derived from the route modules (ADR 306): each method of each `/api` route is
 * asked of the loader (GET) or action (the others) that React Router would run for it, whose
 * `adminApi`/`publicApi` options answer without running it. `bare` lists the methods answered
 * by anything else than such a handler or a 405 (every `/api` call is built with the helper).
 */
export async function apiTable(
  modules: { pattern: string; module: RouteModule }[],
  describeCall: DescribeApiCall,
): Promise<{ table: ApiTable; bare: string[] }> {
  const table: ApiTable = {};
  const bare: string[] = [];
  for (const { pattern, module } of modules) {
    if (!pattern.startsWith("api/")) continue;
    const calls: Partial<Record<Method, ApiCall>> = {};
    for (const method of METHODS) {
      const handler = method === "GET" ? module.loader : module.action;
      if (typeof handler !== "function") continue;
      const shape = await describeCall(handler as Parameters<DescribeApiCall>[0], method);
      if ("status" in shape) {
        if (shape.status !== 405) bare.push(`${method} /${pattern}: ${shape.status}`);
        continue;
      }
      if (!shape.answers) continue;
      if (shape.token !== "session" && shape.token !== "public" && !isScope(shape.token)) {
        bare.push(`${method} /${pattern}: unknown scope ${shape.token}`);
        continue;
      }
      calls[method] = { access: shape.access, token: shape.token as TokenAccess };
    }
    table[pattern] = calls;
  }
  return { table, bare };
}

const isScope = (value: string): value is ApiScope =>
  (API_SCOPES as readonly string[]).includes(value);

/** The route modules of a server build with their URL patterns (as `routePatterns` writes them). */
export function buildModules(build: ServerBuild) {
  const all = Object.values(build.routes).filter((r) => r !== undefined);
  const patternOf = (id: string | undefined): string => {
    const route = id ? build.routes[id] : undefined;
    if (!route) return "";
    const parent = patternOf(route.parentId);
    const own = (route.path ?? "").replace(/^\/+/, "");
    return own ? (parent ? `${parent}/${own}` : own) : parent;
  };
  const parents = new Set(all.map((r) => r.parentId));
  return all
    .filter((r) => !parents.has(r.id))
    .map((r) => {
      const full = patternOf(r.id);
      return {
        id: r.id,
        pattern: r.index && full ? `${full}/` : full,
        module: r.module as RouteModule,
      };
    });
}

/** The classification of a route: its entry here, or for `/api` what its modules say. */
export function classificationOf(pattern: string, api: ApiTable): Classification | undefined {
  const calls = api[pattern];
  if (!calls) return CLASSIFICATION[pattern];
  const access: Partial<Record<Method, Access>> = {};
  for (const [method, call] of Object.entries(calls)) access[method as Method] = call.access;
  return { api: access };
}

/**
 * Other spellings of a concrete path that React Router resolves to the same route (ADR 306): the
 * single-fetch `.data` (with `_routes` naming the route alone, so no parent loader runs first), a
 * trailing slash, upper case and a percent-encoded character.
 */
export function spellings(path: string, routeId: string, method: Method) {
  const data = path === "/" ? "/_.data" : `${path}.data`;
  const out = [{ name: ".data", path: data }];
  if (method === "GET") {
    out.push({ name: "_routes", path: `${data}?_routes=${encodeURIComponent(routeId)}` });
  }
  if (path !== "/") {
    const last = path.at(-1) as string;
    out.push(
      { name: "trailing slash", path: `${path}/` },
      { name: "upper case", path: path.toUpperCase() },
      {
        name: "percent-encoded",
        path: `${path.slice(0, -1)}%${last.charCodeAt(0).toString(16).toUpperCase()}`,
      },
    );
  }
  return out;
}
