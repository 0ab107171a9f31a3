import { TwoFactorSetupSchema } from "~/lib/two-factor";
import { startTwoFactorSetup } from "~/server/accounts/two-factor/two-factor.server";
import { adminApi, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * POST {password} → {success, secret, otpauthUrl}: starts the enrolment (a new secret, not yet in
 * force until `…/2fa/enable` confirms a code); 409 while 2FA is on. Open while the 2FA rule still
 * asks for the enrolment.
 */
export const action = adminApi(
  {
    fallback: "Die Einrichtung der Zwei-Faktor-Anmeldung ist fehlgeschlagen.",
    scope: "session",
    methods: ["POST"],
    methodFirst: true,
    allowPendingEnrollment: true,
    schema: TwoFactorSetupSchema,
  },
  async ({ admin, body }) => {
    const result = await startTwoFactorSetup(admin.id, body.password);
    if (!result.ok) return failureJson(result);
    return Response.json(
      { success: true, secret: result.secret, otpauthUrl: result.otpauthUrl },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
);

export const loader = onlyMethod("POST");
