import { eq } from "drizzle-orm";
import type { Logo } from "~/lib/branding";
import {
  type Configuration,
  ConfigurationSchema,
  DEFAULT_CONFIGURATION,
  mergeConfigurationPatch,
} from "~/lib/configuration";
import { withoutInvalidEmbedOrigins } from "~/lib/embed";
import { fieldErrorsOf } from "~/lib/field-errors";
import { configuration } from "~db/schema";
import { logoChangeErrors, withLogo } from "../branding/config.server";
import { embedOriginErrors } from "../embed/origins.server";
import { openBody } from "../mail/secrets.server";
import { stageChangeErrors } from "../pipeline/stage-removal.server";
import { type Db, db } from "../platform/db.server";
import { fieldsFailure, type Result } from "../platform/result.server";
import type { AuditActor } from "../privacy/audit.server";
import { auditConfigurationSave } from "../privacy/config-audit.server";
import { feedTargetErrors, sealFeedUrls, withStoredFeedUrls } from "../team-calendar/config.server";
import {
  endpointsWithNewUrl,
  newUrlSecretErrors,
  sealWebhookSecrets,
  webhookTargetErrors,
  withStoredSecrets,
} from "../webhooks/config.server";
import { dropQueuedDeliveries } from "../webhooks/queue.server";

/**
 * The parsed configuration, kept in memory (every page reads it; parsing it on each request was a
 * measurable share of the landing page's time, ADR 130). Valid while the database connection is the
 * same, no other connection committed (`PRAGMA data_version`: a restore, a script) and this process
 * did not save (saveConfiguration replaces it).
 */
let cached: { database: Db; version: number; value: Configuration } | undefined;

const versionStatements = new WeakMap<Db, { get: () => unknown }>();
function dataVersion(database: Db): number {
  let statement = versionStatements.get(database);
  if (!statement) {
    statement = database.$client.prepare("PRAGMA data_version").pluck();
    versionStatements.set(database, statement);
  }
  return statement.get() as number;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The saved configuration, every field defaulted and clamped. */
export function getConfiguration(): Configuration {
  const database = db();
  const version = dataVersion(database);
  if (cached?.database === database && cached.version === version) return cached.value;
  const row = database.select().from(configuration).where(eq(configuration.id, 1)).get();
  // A stored embed origin refused by a later, stricter check is dropped, not the whole document.
  const parsed = row
    ? ConfigurationSchema.safeParse(withoutInvalidEmbedOrigins(row.data))
    : undefined;
  // Frozen: every caller shares this object, none may change it for the others.
  const value = deepFreeze(parsed?.success ? parsed.data : DEFAULT_CONFIGURATION);
  cached = { database, version, value };
  return value;
}

type SavedListener = (previous: Configuration, next: Configuration) => void;
const savedListeners: SavedListener[] = [];

/** Called after every save (e.g. the team calendar fetches changed feeds at once). */
export function onConfigurationSaved(listener: SavedListener) {
  savedListeners.push(listener);
}

/** Refused: a 400 with every refused path's messages (`fieldErrors`, keyed by path). */
export type SaveConfigurationResult = Result<{ configuration: Configuration }>;

export const CONFIGURATION_NOT_SAVED = "Fehler beim Speichern der Konfiguration!";

/**
 * Validates, clamps and saves the whole document; returns what was stored. Audited (which sections
 * and keys changed, webhooks with their host; never a value) under `actor`; an endpoint whose URL
 * changed needs a new secret, and its queued deliveries are dropped (ADR 262).
 */
export function saveConfiguration(
  input: unknown,
  actor: AuditActor = "System",
): SaveConfigurationResult {
  return save(input, actor, null);
}

/** Names the stored logo: only the logo upload and removal (app/server/branding/logo.server.ts). */
export function saveLogoReference(
  logo: Logo | null,
  actor: AuditActor = "System",
): SaveConfigurationResult {
  return save(getConfiguration(), actor, { logo });
}

function save(
  input: unknown,
  actor: AuditActor,
  newLogo: { logo: Logo | null } | null,
): SaveConfigurationResult {
  const before = getConfiguration();
  // Webhook secrets left out or masked keep the stored ones; all are encrypted before storing.
  // Busy-feed URLs likewise (ADR 266): masked ones keep the stored sealed value. The logo is
  // never taken from the input (ADR 293): the stored one stays, unless the logo upload sets it.
  const parsed = ConfigurationSchema.safeParse(
    withLogo(
      withStoredFeedUrls(withStoredSecrets(input, before.webhooks), before.teamCalendar.busyFeeds),
      newLogo ? newLogo.logo : before.branding.logo,
    ),
  );
  const fieldErrors = {
    ...(parsed.success
      ? {
          ...webhookTargetErrors(parsed.data),
          ...feedTargetErrors(parsed.data),
          ...embedOriginErrors(parsed.data),
          ...stageChangeErrors(before.pipeline, parsed.data.pipeline),
        }
      : fieldErrorsOf(parsed.error)),
    ...newUrlSecretErrors(input, before.webhooks),
    ...(newLogo ? {} : logoChangeErrors(input, before.branding.logo)),
  };
  if (!parsed.success || Object.keys(fieldErrors).length > 0) {
    return fieldsFailure(400, fieldErrors, CONFIGURATION_NOT_SAVED);
  }
  const data = sealFeedUrls(sealWebhookSecrets(parsed.data));
  db()
    .insert(configuration)
    .values({ id: 1, data, updatedAt: new Date() })
    .onConflictDoUpdate({ target: configuration.id, set: { data, updatedAt: new Date() } })
    .run();
  // The next read parses the stored row again (this connection's own writes leave data_version).
  cached = undefined;
  for (const listener of savedListeners) listener(before, data);
  for (const id of endpointsWithNewUrl(before.webhooks, data.webhooks)) dropQueuedDeliveries(id);
  auditConfigurationSave(actor, before, data, (value) => openBody(value) ?? value);
  return { ok: true, configuration: data };
}

/**
 * A partial update (PATCH /api/configuration): the given keys merge over the stored configuration,
 * everything left out stays. Read and write happen without an await in between (one transaction in
 * effect), so two patches never lose each other's keys.
 */
export function patchConfiguration(
  patch: unknown,
  actor: AuditActor = "System",
): SaveConfigurationResult {
  return saveConfiguration(
    mergeConfigurationPatch(getConfiguration(), withSchedulingReviewed(patch)),
    actor,
  );
}

/** A patch of the scheduling settings counts as their review (go-live item `scheduling`). */
function withSchedulingReviewed(patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || !("scheduling" in patch)) return patch;
  const scheduling = (patch as { scheduling: unknown }).scheduling;
  if (typeof scheduling !== "object" || scheduling === null || Array.isArray(scheduling))
    return patch;
  return { ...patch, scheduling: { hoursReviewed: true, ...scheduling } };
}
