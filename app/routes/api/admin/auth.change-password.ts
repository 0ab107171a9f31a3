import { ChangePasswordApiSchema, MESSAGES } from "~/lib/auth-forms";
import { fieldErrorsOf } from "~/lib/field-errors";
import { changePassword } from "~/server/admins.server";
import {
  firstError,
  jsonError,
  methodNotAllowed,
  readJsonObject,
  requireApiAdmin,
  withApiFallback,
} from "~/server/auth.server";
import type { Route } from "./+types/auth.change-password";

/** POST {oldPassword, newPassword, confirmPassword?} → {success, message}; other sessions end. */
export function action(args: Route.ActionArgs) {
  return withApiFallback("Passwort-Änderung fehlgeschlagen", () => actionUnsafe(args));
}

async function actionUnsafe({ request }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const admin = await requireApiAdmin(request, { allowPendingPasswordChange: true });
  const body = await readJsonObject(request);
  if (!body.ok) return body.response;
  const parsed = ChangePasswordApiSchema.safeParse(body.value);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    return jsonError(firstError(fieldErrors), 400, { fieldErrors });
  }
  const confirm = body.value.confirmPassword;
  if (confirm !== undefined && confirm !== parsed.data.newPassword) {
    return jsonError(MESSAGES.confirmMismatch, 400, {
      fieldErrors: { confirmPassword: [MESSAGES.confirmMismatch] },
    });
  }
  const result = await changePassword(
    admin.id,
    parsed.data.oldPassword,
    parsed.data.newPassword,
    admin.tokenHash,
  );
  if (!result.ok) {
    return jsonError(result.error, result.status, {
      fieldErrors: result.field ? { [result.field]: [result.error] } : undefined,
    });
  }
  return Response.json({ success: true, message: MESSAGES.changeSuccess });
}

export const loader = () => methodNotAllowed("POST");
