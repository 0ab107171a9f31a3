import type { ApiScope } from "~/lib/api-tokens";

// Which /api calls an API token may make (issue 27, ADR 260), beside app/routes.ts: every /api
// route of app/routes.ts has an entry here (tests/unit/api-scopes.test.ts fails otherwise), so
// whoever adds a route decides whether an integration may call it.
//
// - a scope: the method is open to tokens that carry it (403 for others);
// - "session": only a logged-in admin — a token gets 401, whatever its scopes (login and account,
//   users, invitations, settings, API tokens, exports, erasure);
// - "public": nobody needs to log in (a token is simply not looked at).
// Methods a route does not list are "session". HTML pages and their form actions are never open to
// a token (requireAdmin answers 401).

export type ApiMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type ScopeDecision = ApiScope | "session" | "public";
export type RouteScopes = ScopeDecision | Partial<Record<ApiMethod, ScopeDecision>>;

const read = "requests:read";
const write = "requests:write";

export const API_ROUTE_SCOPES: Record<string, RouteScopes> = {
  // Settings: the public GET, the admin's PATCH/PUT never by token.
  "api/configuration": "session",
  // The brand's logo is part of the settings: never for an API token (issue 29).
  "api/admin/branding/logo": "session",
  "api/event-type-details": "public",
  // The proof-of-work challenge of the contact form (issue 26).
  "api/altcha/challenge": "public",
  "api/calcom/available-slots": "public",
  "api/calcom/book-appointment": "public",
  "api/calcom/real-event-types": { GET: "appointments:read" },
  "api/calcom/webhook": "public",
  // POST is the public contact form.
  "api/requests": { GET: read },
  // DELETE erases a request and its person's data: never by token.
  "api/requests/:id": { PATCH: write, DELETE: "session" },
  "api/requests/:id/automated-preparation": { POST: write },
  "api/requests/:id/cursor-prompt": { POST: write },
  "api/requests/:id/attachments/:attachmentId": { DELETE: write },
  "api/audio/*": "public",
  "api/uploads/:filename": { GET: read },
  "api/affiliate-codes": { GET: "codes:read", POST: "codes:write" },
  "api/affiliate-codes/validate/:code": "public",
  "api/affiliate-codes/:id": { PATCH: "codes:write", PUT: "codes:write", DELETE: "codes:write" },
  "api/admin/auth/login": "session",
  "api/admin/auth/login/verify": "session",
  "api/admin/auth/passkey/options": "session",
  "api/admin/auth/passkey/verify": "session",
  "api/admin/auth/logout": "session",
  "api/admin/auth/verify": "session",
  "api/admin/auth/change-password": "session",
  "api/admin/auth/forgot-password": "session",
  "api/admin/auth/reset-password": "session",
  "api/admin/invite": "session",
  "api/admin/register": "session",
  "api/admin/users": "session",
  "api/admin/users/:id": "session",
  "api/admin/users/:id/toggle-status": "session",
  "api/admin/invitations": "session",
  "api/admin/invitations/validate/:token": "session",
  "api/admin/invitations/:id": "session",
  "api/admin/invitations/:id/resend": "session",
  "api/admin/invitations/:id/activate": "session",
  "api/admin/requests": { GET: read },
  "api/admin/requests/archived": { GET: read },
  // Exports (the CSV list, one person's data): never by token.
  "api/admin/requests/export.csv": "session",
  "api/admin/requests/:id/export": "session",
  "api/admin/requests/:id": { GET: read, PUT: write, PATCH: write },
  "api/admin/requests/:id/archive": { PATCH: write, POST: write },
  "api/admin/requests/:id/assign": { POST: write },
  // Issue 30: starting a transcription changes the request; a message to the lead needs its own
  // scope (it mails a person in the team's name), reading the thread is a request read.
  "api/admin/requests/:id/transcription": { POST: write },
  "api/admin/requests/:id/messages": { GET: read, POST: "messages:write" },
  "api/admin/requests/:id/automated-preparation": { POST: write },
  "api/admin/requests/:id/cursor-prompt": { POST: write },
  "api/admin/stats": { GET: read },
  "api/admin/setup-check": "session",
  "api/admin/setup-check/test-mail": "session",
  "api/admin/account": "session",
  "api/admin/account/2fa/setup": "session",
  "api/admin/account/2fa/enable": "session",
  "api/admin/account/2fa/disable": "session",
  "api/admin/account/2fa/recovery-codes": "session",
  "api/admin/account/passkeys": "session",
  "api/admin/account/passkeys/options": "session",
  "api/admin/account/passkeys/verify": "session",
  "api/admin/account/passkeys/:id": "session",
  "api/admin/account/sessions": "session",
  "api/admin/account/sessions/:id": "session",
  "api/admin/account/calendar": "session",
  "api/admin/account/calendar/test": "session",
  "api/admin/api-tokens": "session",
  "api/admin/api-tokens/:id": "session",
  "api/admin/appointments": { GET: "appointments:read" },
  "api/admin/appointments/:id": { DELETE: "appointments:write", PATCH: "appointments:write" },
  "api/admin/appointments/:id/refresh": { POST: "appointments:write" },
  "api/admin/appointments/:id/cancel": { POST: "appointments:write" },
  "api/admin/appointments/:id/reschedule": { POST: "appointments:write" },
  "api/admin/affiliate-codes": { GET: "codes:read", POST: "codes:write" },
  "api/admin/affiliate-codes/:id": {
    PATCH: "codes:write",
    PUT: "codes:write",
    DELETE: "codes:write",
  },
  "api/*": "public",
};

/** The decision for one method of a route pattern (unlisted methods and patterns: "session"). */
export function scopeDecision(pattern: string, method: string): ScopeDecision {
  const entry = API_ROUTE_SCOPES[pattern];
  if (entry === undefined) return "session";
  if (typeof entry === "string") return entry;
  return entry[method as ApiMethod] ?? "session";
}
