import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_SCOPES } from "~/lib/api-tokens";
import { importBuild } from "../../server/app.ts";
import { routeMatcher } from "../../server/route-match.ts";
import { apiLogin, insertAdmin, testDb } from "../integration/auth-helpers";
import { startTestServer, type TestServer } from "../integration/server";
import {
  type Access,
  apiTable,
  buildModules,
  CLASSIFICATION,
  classificationOf,
  concretePath,
  type Method,
  routePatterns,
  spellings,
  type TokenAccess,
} from "./route-table";

// The `/api` routes are classified by their own modules (ADR 306): the build the server runs is
// asked what each loader and action declares; pages and the other resource routes by route-table.ts.
const { build, extras } = await importBuild();
const modules = buildModules(build);
const { table: API, bare } = await apiTable(modules, extras.testHooks.describeApiCall);
const routeIdOf = new Map(modules.map((m) => [m.pattern, m.id]));

let server: TestServer;
type Kind =
  | "none"
  | "garbage"
  | "expired"
  | "pending"
  | "challenge"
  | "enrol"
  | "token-all"
  | "token-narrow"
  | "token-revoked"
  | "token-expired"
  | "token-unknown";
const tokens: Record<Kind, string | undefined> = {
  none: undefined,
  garbage: "garbage-token",
  expired: undefined,
  pending: undefined,
  // The 2FA states (ADR 256): the challenge of a right password (no session, so it opens
  // nothing), and an admin who must still enrol because the rule asks every admin for 2FA.
  challenge: undefined,
  enrol: undefined,
  // Scoped API tokens (ADR 260): every scope, only messages:write (the `scope` of each
  // `adminApi` call decides, ADR 306), revoked, expired, and one that never existed.
  "token-all": undefined,
  "token-narrow": undefined,
  "token-revoked": undefined,
  "token-expired": undefined,
  "token-unknown": "apt_unbekannt",
};
beforeAll(async () => {
  server = await startTestServer();
  const expired = await insertAdmin("abgelaufen");
  tokens.expired = await apiLogin(server, expired.username, expired.password);
  const db = testDb();
  db.prepare("UPDATE sessions SET expires_at = ? WHERE admin_id = ?").run(
    Date.now() - 1000,
    expired.id,
  );
  db.close();
  const pending = await insertAdmin("neu", { passwordChanged: false });
  tokens.pending = await apiLogin(server, pending.username, pending.password);
  const secured = await insertAdmin("gesichert");
  const token = await apiLogin(server, secured.username, secured.password);
  const post = (path: string, json: unknown) =>
    server.fetch(path, { method: "POST", token, json }).then((r) => r.json());
  const { secret } = await post("/api/admin/account/2fa/setup", { password: secured.password });
  await post("/api/admin/account/2fa/enable", { code: generateSync({ secret }) });
  // The API tokens belong to the admin with 2FA (the rule that follows leaves them working).
  const create = async (scopes: readonly string[], expiresInDays?: number) => {
    const res = await server.fetch("/api/admin/api-tokens", {
      method: "POST",
      token,
      json: { name: "Matrix", scopes, expiresInDays, password: secured.password },
    });
    expect(res.status).toBe(201);
    return (await res.json()) as { id: number; token: string };
  };
  tokens["token-all"] = (await create(API_SCOPES)).token;
  tokens["token-narrow"] = (await create(["messages:write"])).token;
  const revoked = await create(["requests:read"]);
  const revoke = await server.fetch(`/api/admin/api-tokens/${revoked.id}`, {
    method: "DELETE",
    token,
  });
  expect(revoke.status).toBe(200);
  tokens["token-revoked"] = revoked.token;
  const expiring = await create(API_SCOPES, 1);
  const tokenDb = testDb();
  tokenDb
    .prepare("UPDATE api_tokens SET expires_at = ? WHERE id = ?")
    .run(Date.now() - 1, expiring.id);
  tokenDb.close();
  tokens["token-expired"] = expiring.token;
  const rule = await server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    // Changing the rule needs the step-up (ADR 315).
    json: { security: { requireTwoFactor: true }, stepUp: { password: secured.password } },
  });
  expect(rule.status).toBe(200);
  const login = await server.fetch("/api/admin/auth/login", {
    method: "POST",
    json: { username: secured.username, password: secured.password },
  });
  tokens.challenge = (await login.json()).challenge;
  expect(tokens.challenge).toBeTruthy();
  const owing = await insertAdmin("ohne-2fa");
  tokens.enrol = await apiLogin(server, owing.username, owing.password);
});

afterAll(async () => {
  await server.close();
});

const patterns = routePatterns();

/**
 * What an API token meets on a method: pages and their actions never take one (ADR 260); an `/api`
 * call's module says it; the public resource routes outside `/api` do not look at it.
 */
function tokenAccess(pattern: string, method: Method, page: boolean): TokenAccess {
  if (page) return "session";
  const call = API[pattern]?.[method];
  if (call) return call.token;
  const c = CLASSIFICATION[pattern];
  return c && "api" in c && c.api[method] === "public" ? "public" : "session";
}

/** Every method of every route that answers it, with who may call it. */
const cases: { pattern: string; method: Method; access: Access; page: boolean }[] = [];
for (const { pattern } of patterns) {
  const c = classificationOf(pattern, API);
  if (!c) continue;
  if ("page" in c) {
    cases.push({ pattern, method: "GET", access: c.page, page: true });
    // Every page action too: it runs before the layout loader, so it must check by itself.
    if (c.post) cases.push({ pattern, method: "POST", access: c.post, page: true });
  } else {
    for (const [method, access] of Object.entries(c.api)) {
      cases.push({ pattern, method: method as Method, access, page: false });
    }
  }
}

/** A form post for a page action, an empty JSON object for a call, nothing for GET. */
function bodyOf(method: Method, page: boolean): RequestInit & { json?: unknown } {
  if (method === "GET") return {};
  if (!page) return { json: {} };
  return {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "intent=save",
  };
}

describe("route matrix (derived from app/routes.ts and the /api route modules)", () => {
  it("classifies every route", () => {
    const unclassified = patterns.filter((p) => !classificationOf(p.pattern, API));
    expect(unclassified, "classify new pages in tests/security/route-table.ts").toEqual([]);
    const stale = Object.keys(CLASSIFICATION).filter(
      (k) => k.startsWith("api/") || !patterns.some((p) => p.pattern === k),
    );
    expect(stale).toEqual([]);
    // The build the server runs has exactly the routes of app/routes.ts.
    expect(modules.map((m) => m.pattern).sort()).toEqual(patterns.map((p) => p.pattern).sort());
  });

  it("builds every /api call with adminApi/publicApi (its options are the classification)", () => {
    expect(Object.keys(API).length).toBeGreaterThan(40);
    expect(bare, "answer /api calls through app/server/http/api-route.server.ts").toEqual([]);
    for (const [pattern, calls] of Object.entries(API)) {
      expect(Object.keys(calls).length, `/${pattern} answers no method`).toBeGreaterThan(0);
    }
  });

  it.each(cases)(
    "$method /$pattern ($access) without auth, garbage, expired, pending, challenge and enrolling",
    async ({ pattern, method, access, page }) => {
      const path = concretePath(pattern);
      for (const [kind, token] of Object.entries(tokens)) {
        // Logging out with a real token would end the session the other cases need.
        if (pattern.endsWith("logout") && token && kind !== "garbage") continue;
        // The session token works as Bearer for pages too (the same lookup as the cookie).
        const res = await server.fetch(path, {
          method,
          token,
          ...bodyOf(method, page),
        });
        const label = `${method} ${path} as ${kind}: ${res.status}`;
        expect(res.status, label).toBeLessThan(500);
        if (access === "public") continue;
        if (kind.startsWith("token-")) {
          // Pages, form actions and every call the table keeps for sessions: 401, whatever the
          // scopes; invalid tokens: 401; a scope the token lacks: 403; within its scopes: through.
          const decision = tokenAccess(pattern, method, page);
          // token-narrow carries only messages:write (ADR 273: sending a message to the lead).
          const within =
            kind === "token-all" || (kind === "token-narrow" && decision === "messages:write");
          if (decision === "session" || decision === "public" || !within) {
            const expected =
              decision === "session" || decision === "public" || kind !== "token-narrow"
                ? 401
                : 403;
            expect(res.status, label).toBe(expected);
          } else {
            expect([401, 403], label).not.toContain(res.status);
          }
          continue;
        }
        if (kind === "enrol") {
          // Owing the 2FA enrolment: only the account page, the password change and the
          // enrolment calls; every other page leads to the account page, every other call 403.
          const open =
            access === "admin-pending" ||
            access === "admin-enrol" ||
            pattern === "admin/account" ||
            pattern === "admin/change-password";
          if (open) {
            expect([401, 403], label).not.toContain(res.status);
            expect(res.headers.get("location") ?? "", label).not.toMatch(/^\/admin\/login/);
          } else if (page) {
            expect(res.status, label).toBe(302);
            expect(res.headers.get("location"), label).toBe("/admin/account#sicherheit");
          } else {
            expect(res.status, label).toBe(403);
          }
          continue;
        }
        if (page) {
          // Pages: no valid session → the login page; a pending session may only use its own
          // pages (change-password) and is sent there from every other page and page action.
          if (kind !== "pending") {
            expect(res.status, label).toBe(302);
            expect(res.headers.get("location"), label).toMatch(/^\/admin\/login/);
          } else if (access === "admin-pending" || pattern === "admin/change-password") {
            expect(res.headers.get("location") ?? "", label).not.toMatch(/^\/admin\/login/);
          } else {
            expect(res.status, label).toBe(302);
            expect(res.headers.get("location"), label).toBe("/admin/change-password?firstLogin=1");
          }
        } else if (kind === "pending") {
          if (access === "admin" || access === "admin-enrol") expect(res.status, label).toBe(403);
          else expect([401, 403], label).not.toContain(res.status);
        } else {
          expect(res.status, label).toBe(401);
        }
      }
    },
  );
});

/** A refusal: 401/403, or the way to the login page (a redirect, or its single-fetch form). */
function refused(res: Response, body: string) {
  if (res.status === 401 || res.status === 403) return true;
  if ([302, 303].includes(res.status)) {
    return /^\/admin\/(login|change-password)/.test(res.headers.get("location") ?? "");
  }
  return res.status === 202 && /"redirect","\/admin\/login/.test(body);
}

describe("every spelling of a path reaches the same decision (ADR 306)", () => {
  it("names the route React Router runs for logs, metrics and compression, in every spelling", () => {
    const match = routeMatcher(build.routes);
    for (const { pattern, id } of modules) {
      const path = concretePath(pattern) || "/";
      for (const spelling of [{ name: "plain", path }, ...spellings(path, id, "GET")]) {
        expect(match(spelling.path).id, `${spelling.path} (${spelling.name})`).toBe(id);
      }
    }
  });

  it.each(cases)(
    "$method /$pattern: .data, _routes, trailing slash, case and encodings as the plain path",
    async ({ pattern, method, access, page }) => {
      const routeId = routeIdOf.get(pattern) as string;
      expect(routeId).toBeTruthy();
      const token = tokenAccess(pattern, method, page);
      for (const { name, path } of spellings(concretePath(pattern), routeId, method)) {
        if (method !== "GET") {
          // The guards in front of React Router read no path: a foreign origin (CSRF) and an
          // unknown body type are refused in every spelling.
          const foreign = await server.fetch(path, {
            method,
            ...bodyOf(method, page),
            headers: { ...bodyOf(method, page).headers, origin: "https://fremd.example" },
          });
          expect(foreign.status, `${method} ${path} (${name}) from a foreign origin`).toBe(403);
          const plain = await server.fetch(path, {
            method,
            headers: { "content-type": "text/plain" },
            body: "intent=save",
          });
          expect(plain.status, `${method} ${path} (${name}) as text/plain`).toBe(415);
        }
        for (const kind of ["none", "token-all", "token-narrow"] as const) {
          const res = await server.fetch(path, {
            method,
            token: tokens[kind],
            ...bodyOf(method, page),
          });
          const body = await res.text();
          const label = `${method} ${path} (${name}) as ${kind}: ${res.status} ${body.slice(0, 80)}`;
          expect(res.status, label).toBeLessThan(500);
          // Only the framed form may be framed, and only as itself (ADR 283).
          if (pattern !== "embed") {
            expect(res.headers.get("content-security-policy"), label).toMatch(
              /frame-ancestors 'none'/,
            );
          }
          if (kind === "none") {
            if (access !== "public") expect(refused(res, body), label).toBe(true);
            continue;
          }
          // A token: the decision of the route that runs, whatever the spelling (a public page
          // or call does not look at it, unless the call refuses tokens).
          if (token === "public" || (page && access === "public")) continue;
          const within = kind === "token-all" ? token !== "session" : token === "messages:write";
          if (token === "session") expect(res.status, label).toBe(401);
          else if (!within) expect(res.status, label).toBe(403);
          else expect([401, 403], label).not.toContain(res.status);
        }
      }
    },
  );
});
