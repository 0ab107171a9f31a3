import { describe, expect, it } from "vitest";
import { API_SCOPES } from "~/lib/api-tokens";
import { testHooks } from "~/server/platform/test-hooks.server";
import { type ApiCall, apiTable, type Method, routePatterns } from "../security/route-table";

// Which API token may make which /api call (ADR 260): the `scope` option of each `adminApi` call in
// the route modules (ADR 306). Derived here from the modules of app/routes.ts, so a new /api route
// is checked without a list to extend: every call is built with the helper, every admin method
// names a scope of the fixed list or "session", and the areas below keep their rules.

const modules = await Promise.all(
  routePatterns()
    .filter((r) => r.pattern.startsWith("api/"))
    .map(async ({ pattern, file }) => ({
      pattern,
      module: await import(new URL(`../../app/${file}`, import.meta.url).pathname),
    })),
);
const { table, bare } = await apiTable(modules, testHooks.describeApiCall);
const calls: (ApiCall & { pattern: string; method: Method })[] = Object.entries(table).flatMap(
  ([pattern, byMethod]) =>
    Object.entries(byMethod).map(([method, call]) => ({
      pattern,
      method: method as Method,
      ...(call as ApiCall),
    })),
);
const SCOPES: readonly string[] = API_SCOPES;

/** Areas a token never reaches, whatever its scopes (users, settings, tokens, exports, login, account). */
const NEVER =
  /^api\/(configuration|admin\/(auth|account|users|invite|invitations|register|setup-check|api-tokens|branding)(\/|$)|admin\/requests\/(export\.csv|:id\/export)$)/;

describe("API token scopes (the scope option of each adminApi call)", () => {
  it("builds every /api route of app/routes.ts with adminApi/publicApi, each answering a method", () => {
    expect(Object.keys(table).length).toBeGreaterThan(40);
    expect(bare, "answer /api calls through app/server/http/api-route.server.ts").toEqual([]);
    for (const [pattern, byMethod] of Object.entries(table)) {
      expect(Object.keys(byMethod).length, `/${pattern}`).toBeGreaterThan(0);
    }
  });

  it("decides every admin method explicitly (a scope or 'session'), never 'public'", () => {
    const admin = calls.filter((c) => c.access !== "public");
    expect(admin.length).toBeGreaterThan(60);
    for (const c of admin) {
      expect([...SCOPES, "session"], `${c.method} /${c.pattern}`).toContain(c.token);
    }
  });

  it("keeps users, settings, tokens, exports, erasure, login and account for sessions", () => {
    const never = calls.filter((c) => NEVER.test(c.pattern));
    expect(never.length).toBeGreaterThan(40);
    for (const c of never) {
      const label = `${c.method} /${c.pattern}`;
      // An admin call there is "session"; a public one (the login's steps) never acts for a token.
      if (c.access === "public") expect(["session", "public"], label).toContain(c.token);
      else expect(c.token, label).toBe("session");
    }
    // Erasing a request and its person's data.
    expect(table["api/requests/:id"]?.DELETE).toEqual({ access: "admin", token: "session" });
    // An unknown /api path: a 404 for anyone, no token looked at.
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"] as const) {
      expect(table["api/*"]?.[method], method).toEqual({ access: "public", token: "public" });
    }
  });

  it("only names scopes of the fixed list", () => {
    for (const c of calls) {
      expect([...SCOPES, "session", "public"], `${c.method} /${c.pattern}`).toContain(c.token);
    }
  });

  it("opens reads to read scopes and changes to write scopes, each in its own area", () => {
    const AREAS: Record<string, RegExp> = {
      requests: /^api\/((admin\/)?(requests|uploads)(\/|$)|admin\/(stats|pipeline)$)/,
      appointments: /^api\/(admin\/appointments(\/|$)|calcom\/real-event-types$)/,
      codes: /^api\/(admin\/)?affiliate-codes(\/|$)/,
      messages: /^api\/admin\/requests\/:id\/messages$/,
      stages: /^api\/admin\/requests\/:id\/stage$/,
      trials: /^api\/admin\/requests\/:id\/trial$/,
    };
    const scoped = calls.filter((c) => SCOPES.includes(c.token));
    expect(scoped.length).toBeGreaterThan(25);
    for (const c of scoped) {
      const label = `${c.method} /${c.pattern}: ${c.token}`;
      const [area, kind] = c.token.split(":");
      expect(c.pattern, label).toMatch(AREAS[area] as RegExp);
      expect(c.method === "GET", label).toBe(kind === "read");
      expect(c.access, label).toBe("admin");
    }
  });

  it("asks an admin for every call under /api/admin but the sign-in steps, and for the spec's admin twins", () => {
    // Under /api/admin only the steps before a session exists are public (and logout).
    const SIGN_IN =
      /^api\/admin\/(auth\/(login|login\/verify|passkey\/options|passkey\/verify|logout|forgot-password|reset-password)|register|invitations\/validate\/:token)$/;
    for (const c of calls.filter((c) => c.pattern.startsWith("api/admin/"))) {
      expect(c.access === "public", `${c.method} /${c.pattern}`).toBe(SIGN_IN.test(c.pattern));
    }
    // The spec's public-side variants of admin calls (GET /api/requests, PATCH/DELETE
    // /api/requests/{id}, affiliate CRUD, the generation calls, attachments) require an admin.
    for (const [pattern, method] of [
      ["api/requests", "GET"],
      ["api/requests/:id", "PATCH"],
      ["api/requests/:id", "DELETE"],
      ["api/requests/:id/automated-preparation", "POST"],
      ["api/requests/:id/cursor-prompt", "POST"],
      ["api/affiliate-codes", "GET"],
      ["api/affiliate-codes", "POST"],
      ["api/affiliate-codes/:id", "PATCH"],
      ["api/affiliate-codes/:id", "DELETE"],
      ["api/uploads/:filename", "GET"],
      ["api/configuration", "PATCH"],
      ["api/configuration", "PUT"],
    ] as const) {
      expect(table[pattern]?.[method]?.access, `${method} /${pattern}`).toBe("admin");
    }
  });
});
