import { sendTestMail } from "~/server/dashboard/setup-check.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { jsonError } from "~/server/http/http.server";

/**
 * POST → 202 {success, mailed, message}: a test mail to the calling admin, through the outbox;
 * 429 with Retry-After past the per-admin limit.
 */
export const action = adminApi(
  {
    fallback: "Die Test-E-Mail konnte nicht erstellt werden.",
    scope: "session",
    methods: ["POST"],
    methodFirst: true,
  },
  async ({ admin }) => {
    const result = await sendTestMail(admin);
    if (!result.ok)
      return jsonError(result.error, result.status, {
        headers: { "Retry-After": String(result.retryAfterSeconds) },
      });
    const { ok: _ok, ...sent } = result;
    return Response.json({ success: true, ...sent }, { status: 202 });
  },
);

export const loader = onlyMethod("POST");
