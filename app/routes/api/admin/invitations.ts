import { adminApi, noStoreJson, onlyMethod } from "~/server/api-route.server";
import { listInvitations } from "~/server/invitations.server";

/** GET → {success, invitations} (unused ones; expired ones are marked). */
export const loader = adminApi({ fallback: "Fehler beim Abrufen der Einladungen" }, () =>
  noStoreJson({ invitations: listInvitations() }),
);

export const action = onlyMethod("GET", { admin: true });
