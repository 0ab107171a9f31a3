import { ForgotPasswordSchema } from "~/lib/auth-forms";
import { fieldErrorsOf } from "~/lib/field-errors";
import {
  firstError,
  jsonError,
  methodNotAllowed,
  readJsonObject,
  withApiFallback,
} from "~/server/auth.server";
import { requestPasswordReset } from "~/server/password-reset.server";
import { clientIp } from "~/server/request-context.server";
import type { Route } from "./+types/auth.forgot-password";

/** POST {email} → {success, message}: neutral whether or not the account exists (public). */
export function action(args: Route.ActionArgs) {
  return withApiFallback("Fehler beim Anfordern des Reset-Links", () => actionUnsafe(args));
}

async function actionUnsafe({ request, context }: Route.ActionArgs) {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const body = await readJsonObject(request);
  if (!body.ok) return body.response;
  const parsed = ForgotPasswordSchema.safeParse(body.value);
  if (!parsed.success) {
    const fieldErrors = fieldErrorsOf(parsed.error);
    return jsonError(firstError(fieldErrors), 400, { fieldErrors });
  }
  const result = await requestPasswordReset(parsed.data.email, clientIp(context));
  if (!result.ok) {
    return jsonError(result.error, 429, {
      headers: { "Retry-After": String(result.retryAfterSeconds) },
    });
  }
  return Response.json({ success: true, message: result.message });
}

export const loader = () => methodNotAllowed("POST");
