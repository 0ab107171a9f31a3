import { z } from "zod";
import { ChangePasswordApiSchema, MESSAGES } from "~/lib/auth-forms";
import { changePassword } from "~/server/accounts/admins.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { jsonError } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";
import { failureJson } from "~/server/platform/result.server";

/** `confirmPassword` is optional for API clients; when sent it must match. */
const Body = ChangePasswordApiSchema.extend({ confirmPassword: z.unknown().optional() });

/** POST {oldPassword, newPassword, confirmPassword?} → {success, message}; other sessions end. */
export const action = adminApi(
  {
    fallback: "Passwort-Änderung fehlgeschlagen",
    scope: "session",
    methods: ["POST"],
    methodFirst: true,
    allowPendingPasswordChange: true,
    schema: Body,
  },
  async ({ body, admin, args }) => {
    if (body.confirmPassword !== undefined && body.confirmPassword !== body.newPassword) {
      return jsonError(MESSAGES.confirmMismatch, 400, {
        fieldErrors: { confirmPassword: [MESSAGES.confirmMismatch] },
      });
    }
    const result = await changePassword(
      admin.id,
      body.oldPassword,
      body.newPassword,
      admin.tokenHash,
      clientIp(args.context),
    );
    if (!result.ok) {
      return failureJson(result);
    }
    return Response.json({ success: true, message: MESSAGES.changeSuccess });
  },
);

export const loader = onlyMethod("POST");
