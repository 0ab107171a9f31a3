import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
const tokens: Record<"none" | "garbage" | "expired" | "pending", string | undefined> = {
  none: undefined,
  garbage: "garbage-token",
  expired: undefined,
  pending: undefined,
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
    "$method /$pattern ($access) without auth, garbage, expired and pending session",
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
          if (access === "admin") expect(res.status, label).toBe(403);
          else expect([401, 403], label).not.toContain(res.status);
        } else {
          expect(res.status, label).toBe(401);
        }
      }
    },
  );
});
