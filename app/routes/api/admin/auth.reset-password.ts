import { fieldErrorsOf, ResetPasswordApiSchema } from "~/lib/auth-forms";
import { firstError, jsonError, methodNotAllowed, readJsonObject } from "~/server/auth.server";
import { resetPassword } from "~/server/password-reset.server";
import type { Route } from "./+types/auth.reset-password";

/** POST {token, newPassword} → {success, message}; single use; every session of the admin ends. */
export async function action({ request }: Route.ActionArgs) {
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
