import { ApiTokenCreateSchema } from "~/lib/api-tokens";
import { adminApi } from "~/server/api-route.server";
import { createApiToken, listApiTokens } from "~/server/api-tokens/api-tokens.server";
import { jsonError } from "~/server/http.server";

/** GET → [{id, name, scopes, createdAt, expiresAt, lastUsedAt, revokedAt}] (never the token). */
export const loader = adminApi({ fallback: "Fehler beim Laden der API-Zugänge" }, ({ admin }) =>
  Response.json(listApiTokens(admin.id), { headers: { "Cache-Control": "no-store" } }),
);

/**
 * POST {name, scopes, expiresInDays?, password | code} → 201 {id, token, name, scopes, expiresAt}:
 * the token is in this answer only. Wrong password or code → 403. Audited, mailed to the admin.
 */
export const action = adminApi(
  {
    fallback: "Der API-Zugang konnte nicht erstellt werden.",
    methods: ["POST"],
    allow: "GET, POST",
    schema: ApiTokenCreateSchema,
  },
  async ({ admin, body }) => {
    const result = await createApiToken(admin, body);
    if (!result.ok)
      return jsonError(result.error, result.status, {
        fieldErrors: result.field ? { [result.field]: [result.error] } : undefined,
      });
    const { id, name, scopes, expiresAt } = result.json;
    return Response.json(
      { success: true, id, token: result.token, name, scopes, expiresAt },
      { status: 201, headers: { "Cache-Control": "no-store" } },
    );
  },
);
