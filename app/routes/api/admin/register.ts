import { RegisterApiSchema } from "~/lib/auth-forms";
import { registerWithInvitation } from "~/server/accounts/invitations.server";
import { onlyMethod, publicApi } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/** POST {invitationToken, username, password} (public): creates an inactive account. */
export const action = publicApi(
  { fallback: "Registrierung fehlgeschlagen", methods: ["POST"], schema: RegisterApiSchema },
  async ({ body }) => {
    const result = await registerWithInvitation(body);
    if (!result.ok) {
      return failureJson(result);
    }
    return Response.json({ success: true, message: result.message }, { status: 201 });
  },
);

export const loader = onlyMethod("POST");
