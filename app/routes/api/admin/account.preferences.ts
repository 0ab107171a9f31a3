import { WorkSettingsSchema } from "~/lib/work-settings";
import { saveWorkSettings, workSettingsOf } from "~/server/accounts/work-settings.server";
import { adminApi, noStoreJson } from "~/server/http/api-route.server";

/**
 * The caller's "Morgenübersicht und Abwesenheit" (ADRs 352, 353), a session only (an API token
 * gets 401): GET → {preferences}; PUT {morningDigest, absentFrom, absentUntil} (whole set, days
 * YYYY-MM-DD or null) → {message, preferences}; 400 at the refused field.
 */
export const loader = adminApi(
  { fallback: "Die Einstellungen konnten nicht geladen werden.", scope: "session" },
  ({ admin }) => noStoreJson({ preferences: workSettingsOf(admin.id) }),
);

export const action = adminApi(
  {
    fallback: "Die Einstellungen konnten nicht gespeichert werden.",
    scope: "session",
    methods: ["PUT"],
    allow: "GET, PUT",
    schema: WorkSettingsSchema,
  },
  ({ admin, body }) => {
    const saved = saveWorkSettings(admin, body);
    return noStoreJson({ message: saved.message, preferences: saved.settings });
  },
);
