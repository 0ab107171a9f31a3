import { InviteSchema } from "~/lib/auth-forms";
import { fieldErrorsOf } from "~/lib/field-errors";
import {
  firstError,
  jsonError,
  methodNotAllowed,
  readJsonObject,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import { createInvitation } from "~/server/invitations.server";
import type { Route } from "./+types/invite";

/** POST {email} → {success, invitationToken, invitation, message}; the link goes out by mail. */
export function action(args: Route.ActionArgs) {
  return withApiFallback("Einladung fehlgeschlagen", () => actionUnsafe(args));
}

async function actionUnsafe({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const admin = await requireApiAdmin(request);
  const body = await readJsonObject(request);
  if (!body.ok) return body.response;
  const parsed = InviteSchema.safeParse(body.value);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    return jsonError(firstError(fieldErrors), 400, { fieldErrors });
  }
  const result = createInvitation(parsed.data.email, admin.id);
  if (!result.ok) return jsonError(result.error, result.status);
  return Response.json(
    {
      success: true,
      invitationToken: result.token,
      invitation: result.invitation,
      message: `Einladung an ${result.invitation.email} gesendet.`,
    },
    { status: 201 },
  );
}

export const loader = () => methodNotAllowed("POST");
