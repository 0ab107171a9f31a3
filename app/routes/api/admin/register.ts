import { RegisterApiSchema } from "~/lib/auth-forms";
import { onlyMethod, publicApi } from "~/server/api-route.server";
import { registerWithInvitation } from "~/server/invitations.server";
import { failureJson } from "~/server/result.server";

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
