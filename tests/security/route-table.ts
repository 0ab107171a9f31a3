import type { RouteConfigEntry } from "@react-router/dev/routes";
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
 * Every route of app/routes.ts, classified (issue 11). A route that is missing here fails the
 * route-matrix test: whoever adds a route decides who may call it.
 */
export const CLASSIFICATION: Record<string, Classification> = {
  "": { page: "public", post: "public" },
  // The contact form alone for a frame on the agency's website (issue 29); its post needs the
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
  // The agency's logo (issue 29): public like the page it appears on; 404 while none is set.
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
  // JSON for a list row's expand button (ADR 190), guarded like the admin pages (login redirect).
  "admin/requests/:id/details": { page: "admin" },
  // Guarded by the feed token in its query (no token: 404), not by a session (issue 28).
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
  "api/configuration": { api: { GET: "public", PATCH: "admin", PUT: "admin" } },
  "api/event-type-details": { api: { GET: "public" } },
  "api/calcom/available-slots": { api: { POST: "public" } },
  "api/calcom/book-appointment": { api: { POST: "public" } },
  "api/calcom/real-event-types": { api: { GET: "admin" } },
  "api/calcom/webhook": { api: { POST: "public" } },
  "api/requests": { api: { GET: "admin", POST: "public" } },
  "api/requests/:id": { api: { PATCH: "admin", DELETE: "admin" } },
  "api/requests/:id/automated-preparation": { api: { POST: "admin" } },
  "api/requests/:id/cursor-prompt": { api: { POST: "admin" } },
  "api/requests/:id/attachments/:attachmentId": { api: { DELETE: "admin" } },
  "api/audio/*": { api: { GET: "public" } },
  "api/uploads/:filename": { api: { GET: "admin" } },
  "api/affiliate-codes": { api: { GET: "admin", POST: "admin" } },
  "api/affiliate-codes/validate/:code": { api: { GET: "public" } },
  "api/altcha/challenge": { api: { GET: "public" } },
  "api/affiliate-codes/:id": { api: { PATCH: "admin", PUT: "admin", DELETE: "admin" } },
  "api/admin/auth/login": { api: { POST: "public" } },
  // Guarded by the challenge of the password step in its body (issue 27), not by a session.
  "api/admin/auth/login/verify": { api: { POST: "public" } },
  "api/admin/auth/passkey/options": { api: { POST: "public" } },
  "api/admin/auth/passkey/verify": { api: { POST: "public" } },
  "api/admin/auth/logout": { api: { POST: "public" } },
  "api/admin/auth/verify": { api: { GET: "admin-pending" } },
  "api/admin/auth/change-password": { api: { POST: "admin-pending" } },
  "api/admin/auth/forgot-password": { api: { POST: "public" } },
  "api/admin/auth/reset-password": { api: { POST: "public" } },
  "api/admin/invite": { api: { POST: "admin" } },
  "api/admin/branding/logo": { api: { PUT: "admin", DELETE: "admin" } },
  "api/admin/register": { api: { POST: "public" } },
  "api/admin/users": { api: { GET: "admin" } },
  "api/admin/users/:id": { api: { DELETE: "admin" } },
  "api/admin/users/:id/toggle-status": { api: { POST: "admin" } },
  "api/admin/invitations": { api: { GET: "admin" } },
  "api/admin/invitations/validate/:token": { api: { GET: "public" } },
  "api/admin/invitations/:id": { api: { DELETE: "admin" } },
  "api/admin/invitations/:id/resend": { api: { POST: "admin" } },
  "api/admin/invitations/:id/activate": { api: { POST: "admin" } },
  "api/admin/requests": { api: { GET: "admin" } },
  "api/admin/requests/archived": { api: { GET: "admin" } },
  "api/admin/requests/export.csv": { api: { GET: "admin" } },
  "api/admin/requests/:id/export": { api: { GET: "admin" } },
  "api/admin/requests/:id": { api: { GET: "admin", PUT: "admin", PATCH: "admin" } },
  "api/admin/requests/:id/archive": { api: { PATCH: "admin", POST: "admin" } },
  "api/admin/requests/:id/assign": { api: { POST: "admin" } },
  "api/admin/requests/:id/transcription": { api: { POST: "admin" } },
  "api/admin/requests/:id/messages": { api: { GET: "admin", POST: "admin" } },
  "api/admin/requests/:id/automated-preparation": { api: { POST: "admin" } },
  "api/admin/requests/:id/cursor-prompt": { api: { POST: "admin" } },
  "api/admin/stats": { api: { GET: "admin" } },
  "api/admin/setup-check": { api: { GET: "admin" } },
  "api/admin/setup-check/test-mail": { api: { POST: "admin" } },
  "api/admin/account": { api: { GET: "admin", PATCH: "admin" } },
  "api/admin/account/2fa/setup": { api: { POST: "admin-enrol" } },
  "api/admin/account/2fa/enable": { api: { POST: "admin-enrol" } },
  "api/admin/account/2fa/disable": { api: { POST: "admin" } },
  "api/admin/account/2fa/recovery-codes": { api: { POST: "admin" } },
  "api/admin/account/passkeys": { api: { GET: "admin", PATCH: "admin" } },
  "api/admin/account/passkeys/options": { api: { POST: "admin-enrol" } },
  "api/admin/account/passkeys/verify": { api: { POST: "admin-enrol" } },
  "api/admin/account/passkeys/:id": { api: { DELETE: "admin" } },
  "api/admin/account/sessions": { api: { GET: "admin" } },
  "api/admin/account/sessions/:id": { api: { DELETE: "admin" } },
  "api/admin/api-tokens": { api: { GET: "admin", POST: "admin" } },
  "api/admin/api-tokens/:id": { api: { DELETE: "admin" } },
  "api/admin/appointments": { api: { GET: "admin" } },
  "api/admin/appointments/:id": { api: { DELETE: "admin", PATCH: "admin" } },
  "api/admin/appointments/:id/refresh": { api: { POST: "admin" } },
  "api/admin/appointments/:id/cancel": { api: { POST: "admin" } },
  "api/admin/appointments/:id/reschedule": { api: { POST: "admin" } },
  "api/admin/affiliate-codes": { api: { GET: "admin", POST: "admin" } },
  "api/admin/affiliate-codes/:id": { api: { PATCH: "admin", PUT: "admin", DELETE: "admin" } },
  "api/*": { api: { GET: "public", POST: "public" } },
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
