import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scopeDecision } from "~/api-scopes";
import { API_SCOPES } from "~/lib/api-tokens";
import { apiLogin, insertAdmin, testDb } from "../integration/auth-helpers";
import { startTestServer, type TestServer } from "../integration/server";
import {
  type Access,
  CLASSIFICATION,
  concretePath,
  type Method,
  routePatterns,
} from "./route-table";

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
  // The 2FA states (issue 27): the challenge of a right password (no session, so it opens
  // nothing), and an admin who must still enrol because the rule asks every admin for 2FA.
  challenge: undefined,
  enrol: undefined,
  // Scoped API tokens (issue 27, ADR 260): every scope, one scope no route needs (the
  // app/api-scopes.ts table decides), revoked, expired, and one that never existed.
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

describe("route matrix (derived from app/routes.ts)", () => {
  it("classifies every route", () => {
    const unclassified = patterns.filter((p) => !(p.pattern in CLASSIFICATION));
    expect(unclassified, "classify new routes in tests/security/route-table.ts").toEqual([]);
    const stale = Object.keys(CLASSIFICATION).filter((k) => !patterns.some((p) => p.pattern === k));
    expect(stale).toEqual([]);
  });

  const cases: { pattern: string; method: Method; access: Access; page: boolean }[] = [];
  for (const { pattern } of patterns) {
    const c = CLASSIFICATION[pattern];
    if (!c) continue;
    if ("page" in c) {
      cases.push({
        pattern,
        method: "GET",
        access: c.page === "admin" ? "admin" : "public",
        page: true,
      });
      // Every page action too: it runs before the layout loader, so it must check by itself.
      if (c.post) cases.push({ pattern, method: "POST", access: c.post, page: true });
    } else {
      for (const [method, access] of Object.entries(c.api)) {
        cases.push({ pattern, method: method as Method, access, page: false });
      }
    }
  }

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
          ...(method === "GET"
            ? {}
            : page
              ? {
                  headers: { "content-type": "application/x-www-form-urlencoded" },
                  body: "intent=save",
                }
              : { json: {} }),
        });
        const label = `${method} ${path} as ${kind}: ${res.status}`;
        expect(res.status, label).toBeLessThan(500);
        if (access === "public") continue;
        if (kind.startsWith("token-")) {
          // Pages, form actions and every call the table keeps for sessions: 401, whatever the
          // scopes; invalid tokens: 401; a scope the token lacks: 403; within its scopes: through.
          const decision = page ? "session" : scopeDecision(pattern, method);
          // token-narrow carries only messages:write (issue 30: sending a message to the lead).
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
