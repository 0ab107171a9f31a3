import { adminApi, onlyMethod } from "~/server/api-route.server";
import { sendTestMail } from "~/server/setup-check.server";

/** POST → 202 {success, mailed, message}: a test mail to the calling admin, through the outbox. */
export const action = adminApi(
  {
    fallback: "Die Test-E-Mail konnte nicht erstellt werden.",
    methods: ["POST"],
    methodFirst: true,
  },
  ({ admin }) => Response.json({ success: true, ...sendTestMail(admin) }, { status: 202 }),
);

export const loader = onlyMethod("POST");
