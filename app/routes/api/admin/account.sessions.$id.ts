import { endSessionById, SESSION_MESSAGES } from "~/server/accounts/sessions.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { jsonError } from "~/server/http/http.server";

/**
 * DELETE → {success, message}: ends one of the calling admin's sessions; its cookie and its Bearer
 * token answer 401 from the next call on. Unknown or someone else's id → 404. Audited.
 */
export const action = adminApi(
  {
    fallback: "Die Sitzung konnte nicht abgemeldet werden.",
    scope: "session",
    methods: ["DELETE"],
  },
  ({ admin, args }) => {
    const result = endSessionById(admin, String(args.params.id ?? "").slice(0, 100));
    if (!result.ok) return jsonError(result.error, result.status);
    return Response.json({
      success: true,
      current: result.current,
      message: SESSION_MESSAGES.ended,
    });
  },
);

export const loader = onlyMethod("DELETE", { admin: true });
