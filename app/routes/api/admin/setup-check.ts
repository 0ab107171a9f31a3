import { setupCheck } from "~/server/dashboard/setup-check.server";
import { adminApi, noStoreJson, onlyMethod } from "~/server/http/api-route.server";

/** GET /api/admin/setup-check → {ready, items: [{id, ok, optional, message, href}]} (the go-live check). */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen des Go-live-Checks", scope: "session" },
  ({ admin }) => noStoreJson({ ...setupCheck(admin) }),
);

export const action = onlyMethod("GET", { admin: true });
