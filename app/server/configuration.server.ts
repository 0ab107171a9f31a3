import { eq } from "drizzle-orm";
import {
  type Configuration,
  ConfigurationSchema,
  DEFAULT_CONFIGURATION,
  mergeConfigurationPatch,
} from "~/lib/configuration";
import { fieldErrorsOf } from "~/lib/field-errors";
import { configuration } from "~db/schema";
import { db } from "./db.server";
import {
  sealWebhookSecrets,
  webhookTargetErrors,
  withStoredSecrets,
} from "./webhooks/config.server";

/** The saved configuration, every field defaulted and clamped. */
export function getConfiguration(): Configuration {
  const row = db().select().from(configuration).where(eq(configuration.id, 1)).get();
  if (!row) return DEFAULT_CONFIGURATION;
  const parsed = ConfigurationSchema.safeParse(row.data);
  return parsed.success ? parsed.data : DEFAULT_CONFIGURATION;
}

export type SaveConfigurationResult =
  | { ok: true; configuration: Configuration }
  | { ok: false; error: string; fieldErrors: Record<string, string[]> };

/** Validates, clamps and saves the whole document; returns what was stored. */
export function saveConfiguration(input: unknown): SaveConfigurationResult {
  // Webhook secrets left out or masked keep the stored ones; all are encrypted before storing.
  const parsed = ConfigurationSchema.safeParse(
    withStoredSecrets(input, getConfiguration().webhooks),
  );
  const fieldErrors = parsed.success
    ? webhookTargetErrors(parsed.data)
    : fieldErrorsOf(parsed.error);
  if (!parsed.success || Object.keys(fieldErrors).length > 0) {
    return { ok: false, error: "Fehler beim Speichern der Konfiguration!", fieldErrors };
  }
  const data = sealWebhookSecrets(parsed.data);
  db()
    .insert(configuration)
    .values({ id: 1, data, updatedAt: new Date() })
    .onConflictDoUpdate({ target: configuration.id, set: { data, updatedAt: new Date() } })
    .run();
  return { ok: true, configuration: data };
}

/**
 * A partial update (PATCH /api/configuration): the given keys merge over the stored configuration,
 * everything left out stays. Read and write happen without an await in between (one transaction in
 * effect), so two patches never lose each other's keys.
 */
export function patchConfiguration(patch: unknown): SaveConfigurationResult {
  return saveConfiguration(mergeConfigurationPatch(getConfiguration(), patch));
}
