import { ResetPasswordApiSchema } from "~/lib/auth-forms";
import { fieldErrorsOf } from "~/lib/field-errors";
import {
  firstError,
  jsonError,
  methodNotAllowed,
  readJsonObject,
  withApiFallback,
} from "~/server/auth.server";
import { resetPassword } from "~/server/password-reset.server";
import type { Route } from "./+types/auth.reset-password";

/** POST {token, newPassword} → {success, message}; single use; every session of the admin ends. */
export function action(args: Route.ActionArgs) {
  return withApiFallback("Fehler beim Zurücksetzen des Passworts", () => actionUnsafe(args));
}

async function actionUnsafe({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await readJsonObject(request);
  if (!body.ok) return body.response;
  const parsed = ResetPasswordApiSchema.safeParse(body.value);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    return jsonError(firstError(fieldErrors), 400, { fieldErrors });
  }
  const result = await resetPassword(parsed.data.token, parsed.data.newPassword);
  if (!result.ok) return jsonError(result.error, result.status);
  return Response.json({ success: true, message: result.message });
}

export const loader = () => methodNotAllowed("POST");
