import { RegisterApiSchema } from "~/lib/auth-forms";
import { fieldErrorsOf } from "~/lib/field-errors";
import {
  firstError,
  jsonError,
  methodNotAllowed,
  readJsonObject,
  withApiFallback,
} from "~/server/auth.server";
import { registerWithInvitation } from "~/server/invitations.server";
import type { Route } from "./+types/register";

/** POST {invitationToken, username, password} (public): creates an inactive account. */
export function action(args: Route.ActionArgs) {
  return withApiFallback("Registrierung fehlgeschlagen", () => actionUnsafe(args));
}

async function actionUnsafe({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await readJsonObject(request);
  if (!body.ok) return body.response;
  const parsed = RegisterApiSchema.safeParse(body.value);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    return jsonError(firstError(fieldErrors), 400, { fieldErrors });
  }
  const result = await registerWithInvitation(parsed.data);
  if (!result.ok) {
    return jsonError(result.error, result.status, {
      fieldErrors: result.field ? { [result.field]: [result.error] } : undefined,
    });
  }
  return Response.json({ success: true, message: result.message }, { status: 201 });
}

export const loader = () => methodNotAllowed("POST");
