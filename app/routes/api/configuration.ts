import { berlinToday } from "~/lib/booking-calendar";
import { publicConfiguration } from "~/lib/configuration";
import { getApiAdmin } from "~/server/accounts/auth.server";
import { closedDaysAhead } from "~/server/appointments/holidays.server";
import { branding } from "~/server/branding/branding.server";
import {
  getConfiguration,
  patchConfiguration,
  saveConfiguration,
} from "~/server/configuration/configuration.server";
import { adminApi, publicApi } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";
import { maskedConfiguration } from "~/server/webhooks/config.server";

/**
 * Visitors get the public subset; admins get the whole document — unless they ask for what a
 * visitor sees (`?view=public`: the booking dialog's weekdays, closed days and horizon, also when
 * an admin tries it out).
 */
export const loader = publicApi(
  { fallback: "Fehler beim Abrufen der Konfiguration" },
  async ({ request }) => {
    const config = getConfiguration();
    const asVisitor = new URL(request.url).searchParams.get("view") === "public";
    const admin = asVisitor ? null : await getApiAdmin(request);
    // Webhook secrets never leave in full (masked to their last four characters).
    // Visitors' calendars grey out holidays and blocked days of the coming year (dates only).
    const visitor = {
      ...publicConfiguration(config, branding()),
      bookingClosedDays: closedDaysAhead(config.scheduling, berlinToday(), 400),
    };
    return Response.json(admin ? maskedConfiguration(config) : visitor, {
      headers: { "Cache-Control": "no-store" },
    });
  },
);

/**
 * PATCH /api/configuration merges the given keys over the stored configuration; PUT replaces the
 * whole document. Either way one schema validates and clamps the result. A webhook secret that is
 * left out, empty or masked keeps the stored one.
 */
export const action = adminApi(
  {
    fallback: "Fehler beim Speichern der Konfiguration!",
    scope: "session",
    methods: ["PATCH", "PUT"],
    allow: "GET, PATCH, PUT",
    methodFirst: true,
    json: true,
  },
  ({ request, body, admin }) => {
    const result =
      request.method === "PATCH" ? patchConfiguration(body, admin) : saveConfiguration(body, admin);
    if (!result.ok) return failureJson(result);
    return Response.json({
      success: true,
      message: "Konfiguration erfolgreich gespeichert!",
      configuration: maskedConfiguration(result.configuration),
    });
  },
);
