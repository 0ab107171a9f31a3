import { describe, expect, it } from "vitest";
import { API_ROUTE_SCOPES, scopeDecision } from "~/api-scopes";
import { API_SCOPES } from "~/lib/api-tokens";
import { apiPatternOf } from "~/server/accounts/api-tokens/authorize.server";
import { CLASSIFICATION, routePatterns } from "../security/route-table";

// The scope table of API tokens (issue 27, ADR 260) beside app/routes.ts: derived from the routes,
// so a new /api route without a decision fails here.

const apiPatterns = routePatterns()
  .map((r) => r.pattern)
  .filter((p) => p.startsWith("api/"));

/** Areas a token never reaches, whatever its scopes (issue 27). */
const NEVER =
  /^api\/(configuration|admin\/(auth|account|users|invite|invitations|register|setup-check|api-tokens)(\/|$)|admin\/requests\/(export\.csv|:id\/export)$)/;

describe("API token scopes (app/api-scopes.ts)", () => {
  it("has a decision for every /api route of app/routes.ts, and no stale one", () => {
    expect(apiPatterns.length).toBeGreaterThan(40);
    const missing = apiPatterns.filter((p) => !(p in API_ROUTE_SCOPES));
    expect(missing, "add the new /api route to app/api-scopes.ts").toEqual([]);
    const stale = Object.keys(API_ROUTE_SCOPES).filter((p) => !apiPatterns.includes(p));
    expect(stale).toEqual([]);
  });

  it("decides every admin method explicitly (a scope or 'session'), never 'public'", () => {
    for (const pattern of apiPatterns) {
      const c = CLASSIFICATION[pattern];
      if (!c || !("api" in c)) continue;
      const entry = API_ROUTE_SCOPES[pattern];
      for (const [method, access] of Object.entries(c.api)) {
        if (access === "public") continue;
        const decided = typeof entry === "string" ? entry : entry[method as "GET"];
        expect(decided, `${method} /${pattern}`).toBeDefined();
        expect(decided, `${method} /${pattern}`).not.toBe("public");
      }
    }
  });

  it("keeps users, settings, tokens, exports, erasure, login and account for sessions", () => {
    for (const pattern of apiPatterns.filter((p) => NEVER.test(p))) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        expect(scopeDecision(pattern, method), `${method} /${pattern}`).toBe("session");
      }
    }
    expect(scopeDecision("api/requests/:id", "DELETE")).toBe("session");
    expect(scopeDecision("api/unknown", "GET")).toBe("session");
  });

  it("only names scopes of the fixed list", () => {
    for (const entry of Object.values(API_ROUTE_SCOPES)) {
      for (const d of typeof entry === "string" ? [entry] : Object.values(entry)) {
        expect([...API_SCOPES, "session", "public"]).toContain(d);
      }
    }
  });

  it("matches paths to patterns as the router ranks them", () => {
    expect(apiPatternOf("/api/admin/requests/archived")).toBe("api/admin/requests/archived");
    expect(apiPatternOf("/api/admin/requests/12")).toBe("api/admin/requests/:id");
    expect(apiPatternOf("/api/admin/requests/export.csv")).toBe("api/admin/requests/export.csv");
    expect(apiPatternOf("/api/uploads/a.pdf")).toBe("api/uploads/:filename");
    expect(apiPatternOf("/api/nothing/here")).toBe("api/*");
    expect(apiPatternOf("/admin/requests")).toBeNull();
  });
});
