import { listInvitations } from "~/server/accounts/invitations.server";
import { adminApi, noStoreJson, onlyMethod } from "~/server/http/api-route.server";

/** GET → {success, invitations} (unused ones; expired ones are marked). */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Einladungen", scope: "session" },
  () => noStoreJson({ invitations: listInvitations() }),
);

export const action = onlyMethod("GET", { admin: true });
