import { testCalendarConnection } from "~/server/caldav/connections.server";
import { adminApi, noStoreJson, onlyMethod } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * "Verbindung testen" (ADR 335): discovery again with the stored login. 200 {message}, or 502
 * with what failed in plain German (address not found, TLS, 401, 403, no principal, no calendar
 * that holds events); 409 without a connection.
 */
export const loader = onlyMethod("POST", { admin: true });

export const action = adminApi(
  { fallback: "Die Verbindung konnte nicht getestet werden.", methods: ["POST"], scope: "session" },
  async ({ admin }) => {
    const tested = await testCalendarConnection(admin.id);
    if (!tested.ok) return failureJson(tested);
    return noStoreJson({ message: tested.message });
  },
);
