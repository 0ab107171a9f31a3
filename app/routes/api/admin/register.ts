import { RegisterApiSchema } from "~/lib/auth-forms";
import { onlyMethod, publicApi } from "~/server/api-route.server";
import { jsonError } from "~/server/http.server";
import { registerWithInvitation } from "~/server/invitations.server";

/** POST {invitationToken, username, password} (public): creates an inactive account. */
export const action = publicApi(
  { fallback: "Registrierung fehlgeschlagen", methods: ["POST"], schema: RegisterApiSchema },
  async ({ body }) => {
    const result = await registerWithInvitation(body);
    if (!result.ok) {
      return jsonError(result.error, result.status, {
        fieldErrors: result.field ? { [result.field]: [result.error] } : undefined,
      });
    }
    return Response.json({ success: true, message: result.message }, { status: 201 });
  },
);

export const loader = onlyMethod("POST");
