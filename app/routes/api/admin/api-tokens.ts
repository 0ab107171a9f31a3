import { ApiTokenCreateSchema } from "~/lib/api-tokens";
import { createApiToken, listApiTokens } from "~/server/accounts/api-tokens/api-tokens.server";
import { adminApi } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/** GET → [{id, name, scopes, createdAt, expiresAt, lastUsedAt, revokedAt}] (never the token). */
export const loader = adminApi(
  { fallback: "Fehler beim Laden der API-Zugänge", scope: "session" },
  ({ admin }) =>
    Response.json(listApiTokens(admin.id), { headers: { "Cache-Control": "no-store" } }),
);

/**
 * POST {name, scopes, expiresInDays?, password | code} → 201 {id, token, name, scopes, expiresAt}:
 * the token is in this answer only. Wrong password or code → 403; too many → 429 with Retry-After. Audited, mailed to the admin.
 */
export const action = adminApi(
  {
    fallback: "Der API-Zugang konnte nicht erstellt werden.",
    scope: "session",
    methods: ["POST"],
    allow: "GET, POST",
    schema: ApiTokenCreateSchema,
  },
  async ({ admin, body }) => {
    const result = await createApiToken(admin, body);
    if (!result.ok) return failureJson(result);
    const { id, name, scopes, expiresAt } = result.json;
    return Response.json(
      { success: true, id, token: result.token, name, scopes, expiresAt },
      { status: 201, headers: { "Cache-Control": "no-store" } },
    );
  },
);
