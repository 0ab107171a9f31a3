import { readAppointmentQuery } from "~/lib/appointments";
import { listAppointments } from "~/server/appointments/list.server";
import { adminApi, noStoreJson } from "~/server/http/api-route.server";

/** GET /api/admin/appointments?page&limit&filter&sort&search&status → {appointments, pagination} */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Termine", scope: "appointments:read" },
  ({ request }) =>
    noStoreJson(listAppointments(readAppointmentQuery(new URL(request.url).searchParams))),
);
