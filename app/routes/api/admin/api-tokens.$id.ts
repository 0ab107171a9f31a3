import { API_TOKEN_MESSAGES } from "~/lib/api-tokens";
import { revokeApiToken } from "~/server/accounts/api-tokens/api-tokens.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { jsonError } from "~/server/http/http.server";

/** DELETE → {success, message}: revokes one of the calling admin's tokens (401 from now on). */
export const action = adminApi(
  {
    fallback: "Der API-Zugang konnte nicht widerrufen werden.",
    scope: "session",
    methods: ["DELETE"],
    id: { param: "id", notFound: API_TOKEN_MESSAGES.notFound },
  },
  ({ admin, id }) => {
    const result = revokeApiToken(admin, id);
    if (!result.ok) return jsonError(result.error, result.status);
    return Response.json({ success: true, message: API_TOKEN_MESSAGES.revoked(result.name) });
  },
);

export const loader = onlyMethod("DELETE", { admin: true });
