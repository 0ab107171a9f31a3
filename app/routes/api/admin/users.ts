import { listAdmins } from "~/server/accounts/admins.server";
import { adminApi, noStoreJson, onlyMethod } from "~/server/http/api-route.server";

/** GET → {success, admins}. */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Admins", scope: "session" },
  () => noStoreJson({ admins: listAdmins() }),
);

export const action = onlyMethod("GET", { admin: true });
