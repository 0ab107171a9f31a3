import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { WorkSettingsSchema } from "~/lib/work-settings";
import type { SessionAdmin } from "~/server/accounts/auth.server";
import { saveWorkSettings } from "~/server/accounts/work-settings.server";

/**
 * "Morgenübersicht und Abwesenheit" on /admin/account (ADRs 352, 353): the same schema and rule as
 * `PUT /api/admin/account/preferences`; a refused date comes back at its field (400).
 */
export function handleWorkSettingsIntent(form: FormData, admin: SessionAdmin) {
  const submission = parseWithZod(form, { schema: WorkSettingsSchema });
  if (submission.status !== "success")
    return data(
      { result: null, notice: null, work: { result: submission.reply() } },
      { status: 400 },
    );
  const saved = saveWorkSettings(admin, submission.value);
  return data({
    result: null,
    notice: null,
    work: { result: submission.reply(), message: saved.message },
  });
}
