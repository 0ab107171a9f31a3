import { endSession } from "~/server/auth.server";
import { methodNotAllowed } from "~/server/http.server";
import type { Route } from "./+types/auth.logout";

/** POST: ends the session behind the Bearer token or cookie; always succeeds. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  return Response.json(
    { success: true, message: "Erfolgreich abgemeldet" },
    { headers: { "Set-Cookie": await endSession(request) } },
  );
}

export const loader = () => methodNotAllowed("POST");
