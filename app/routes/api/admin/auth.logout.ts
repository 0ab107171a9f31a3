import { endSession } from "~/server/accounts/auth.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";

/** POST: ends the session behind the Bearer token or cookie; always succeeds. */
export const action = publicApi(
  { fallback: "Abmeldung fehlgeschlagen", methods: ["POST"] },
  async ({ request }) =>
    Response.json(
      { success: true, message: "Erfolgreich abgemeldet" },
      { headers: { "Set-Cookie": await endSession(request) } },
    ),
);

export const loader = onlyMethod("POST");
