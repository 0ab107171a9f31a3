import { berlinToday } from "~/lib/booking-calendar";
import { mergeConfigurationPatch, publicConfiguration } from "~/lib/configuration";
import { StepUpProofSchema } from "~/lib/step-up";
import { notifyTwoFactorRule } from "~/server/accounts/activation.server";
import { getApiAdmin } from "~/server/accounts/auth.server";
import {
  changesTwoFactorRule,
  requireStepUp,
  stepUpJson,
} from "~/server/accounts/step-up-guard.server";
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
 * left out, empty or masked keeps the stored one. A change of `security.requireTwoFactor` needs a
 * step-up (`stepUp: {password} | {code}` in the body, or one of the last 5 minutes; ADR 315).
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
  async ({ request, body, admin }) => {
    // The body may carry the step-up beside the configuration (ADR 315): asked for only when
    // the 2FA rule changes.
    const { stepUp, ...config } = body;
    const patch = request.method === "PATCH";
    const before = getConfiguration().security.requireTwoFactor;
    if (
      changesTwoFactorRule(patch ? mergeConfigurationPatch(getConfiguration(), config) : config)
    ) {
      const proof = StepUpProofSchema.safeParse(stepUp);
      const proven = await requireStepUp(admin, proof.success ? proof.data : undefined);
      if (!proven.ok) return stepUpJson(proven);
    }
    const result = patch ? patchConfiguration(config, admin) : saveConfiguration(config, admin);
    if (!result.ok) return failureJson(result);
    // Every other admin hears of a switched 2FA rule (ADR 315).
    const after = result.configuration.security.requireTwoFactor;
    if (after !== before) notifyTwoFactorRule(after, admin);
    return Response.json({
      success: true,
      message: "Konfiguration erfolgreich gespeichert!",
      configuration: maskedConfiguration(result.configuration),
    });
  },
);
