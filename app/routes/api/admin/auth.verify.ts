import { adminApi, onlyMethod } from "~/server/http/api-route.server";

/** GET: checks the current session; 401 when missing, unknown or expired. */
export const loader = adminApi(
  {
    fallback: "Session-Verifikation fehlgeschlagen",
    scope: "session",
    allowPendingPasswordChange: true,
  },
  ({ admin: verified }) => {
    const { tokenHash: _hidden, ...admin } = verified;
    return Response.json(
      { success: true, valid: true, admin },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
);

export const action = onlyMethod("GET");
