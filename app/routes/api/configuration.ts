import { publicConfiguration } from "~/lib/configuration";
import { getAdmin, requireApiAdmin } from "~/server/auth.server";
import { getConfiguration, saveConfiguration } from "~/server/configuration.server";
import type { Route } from "./+types/configuration";

/** Visitors get the public subset; admins get the whole document. */
export async function loader({ request }: Route.LoaderArgs) {
  const config = getConfiguration();
  const admin = await getAdmin(request);
  return Response.json(admin ? config : publicConfiguration(config), {
    headers: { "Cache-Control": "no-store" },
  });
}

/** PATCH /api/configuration: the whole document, validated and clamped by one schema. */
export async function action({ request }: Route.ActionArgs) {
  if (request.method !== "PATCH" && request.method !== "PUT") {
    return Response.json({ error: "Methode nicht erlaubt" }, { status: 405 });
  }
  await requireApiAdmin(request);
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    return Response.json({ error: "Ungültiges JSON im Anfrage-Body." }, { status: 400 });
  }
  const result = saveConfiguration(body);
  if (!result.ok) return Response.json(result, { status: 400 });
  return Response.json({
    success: true,
    message: "Konfiguration erfolgreich gespeichert!",
    configuration: result.configuration,
  });
}
