import { publicConfiguration } from "~/lib/configuration";
import { getApiAdmin, requireApiAdmin } from "~/server/auth.server";
import {
  getConfiguration,
  patchConfiguration,
  saveConfiguration,
} from "~/server/configuration.server";
import { methodNotAllowed, readJsonObject } from "~/server/http.server";
import { maskedConfiguration } from "~/server/webhooks/config.server";
import type { Route } from "./+types/configuration";

/** Visitors get the public subset; admins get the whole document. */
export async function loader({ request }: Route.LoaderArgs) {
  const config = getConfiguration();
  const admin = await getApiAdmin(request);
  // Webhook secrets never leave in full (masked to their last four characters).
  return Response.json(admin ? maskedConfiguration(config) : publicConfiguration(config), {
    headers: { "Cache-Control": "no-store" },
  });
}

/**
 * PATCH /api/configuration merges the given keys over the stored configuration; PUT replaces the
 * whole document. Either way one schema validates and clamps the result. A webhook secret that is
 * left out, empty or masked keeps the stored one.
 */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "PUT") {
    return methodNotAllowed("GET, PATCH, PUT");
  }
  const admin = await requireApiAdmin(request);
  const body = await readJsonObject(request);
  if (!body.ok) return body.response;
  const result =
    request.method === "PATCH"
      ? patchConfiguration(body.value, admin)
      : saveConfiguration(body.value, admin);
  if (!result.ok) return Response.json(result, { status: 400 });
  return Response.json({
    success: true,
    message: "Konfiguration erfolgreich gespeichert!",
    configuration: maskedConfiguration(result.configuration),
  });
}
