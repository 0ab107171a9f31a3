import { listSessions } from "~/server/accounts/sessions.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";

/**
 * GET → [{id, createdAt, lastSeenAt, userAgent, network, current}]: the calling admin's live
 * sessions (never by API token: `scope: "session"`, ADR 306).
 */
export const loader = adminApi(
  { fallback: "Fehler beim Laden der Sitzungen", scope: "session" },
  ({ admin }) => Response.json(listSessions(admin), { headers: { "Cache-Control": "no-store" } }),
);

export const action = onlyMethod("GET", { admin: true });
