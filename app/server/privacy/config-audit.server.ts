import { isDeepStrictEqual } from "node:util";
import type { Configuration } from "~/lib/configuration";
import type { WebhookEndpoint } from "~/lib/webhooks";
import { type AuditActor, audit } from "./audit.server";

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return "(unlesbar)";
  }
};

/** Which keys of one section differ (second level; a list or a scalar section as a whole). */
function changedKeys(section: string, before: unknown, after: unknown): string[] {
  if (isDeepStrictEqual(before, after)) return [];
  const isRecord = (v: unknown): v is Record<string, unknown> =>
    typeof v === "object" && v !== null && !Array.isArray(v);
  if (!isRecord(before) || !isRecord(after)) return [section];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .filter((k) => !isDeepStrictEqual(before[k], after[k]))
    .map((k) => `${section}.${k}`)
    .sort();
}

/**
 * Compares two stored endpoints: what changed, never a value. Sealed values are compared opened
 * (every save seals again with a fresh IV).
 */
function webhookChanges(before: WebhookEndpoint, after: WebhookEndpoint, open: Opener) {
  const changed: string[] = [];
  if (open(before.url) !== open(after.url)) changed.push("url");
  if (!isDeepStrictEqual(before.events, after.events)) changed.push("events");
  if (before.format !== after.format) changed.push("format");
  if (open(before.secret) !== open(after.secret)) changed.push("secret");
  return changed;
}

/** Opens a sealed value (URL or secret); plain ones as they are. */
type Opener = (stored: string) => string;

/**
 * The audit entries of one configuration save (ADR 262): one "settings" entry naming the changed
 * sections and keys (never a value: secrets, addresses, texts stay out), and per webhook one entry
 * for added, changed or removed with its target host (who receives lead data). Nothing when
 * nothing changed.
 */
export function auditConfigurationSave(
  actor: AuditActor,
  before: Configuration,
  after: Configuration,
  open: Opener,
) {
  const sections = Object.keys({ ...before, ...after }) as (keyof Configuration)[];
  const keys = sections
    .filter((s) => s !== "webhooks")
    .flatMap((s) => changedKeys(s, before[s], after[s]));
  if (keys.length > 0) {
    const bereiche = [...new Set(keys.map((k) => k.split(".")[0] as string))];
    audit(actor, "settings", bereiche.join(", "), { bereiche, schluessel: keys });
  }
  const old = new Map(before.webhooks.map((w) => [w.id, w]));
  const next = new Map(after.webhooks.map((w) => [w.id, w]));
  for (const w of after.webhooks) {
    const prior = old.get(w.id);
    const host = hostOf(open(w.url));
    if (!prior) {
      audit(actor, "webhook-added", host, { id: w.id, ereignisse: w.events });
      continue;
    }
    const changed = webhookChanges(prior, w, open);
    if (changed.length === 0) continue;
    const previous = hostOf(open(prior.url));
    audit(actor, "webhook-changed", host, {
      id: w.id,
      geaendert: changed,
      ...(previous !== host ? { vorherigerHost: previous } : {}),
    });
  }
  for (const w of before.webhooks) {
    if (!next.has(w.id)) audit(actor, "webhook-removed", hostOf(open(w.url)), { id: w.id });
  }
}
