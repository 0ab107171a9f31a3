import { randomBytes } from "node:crypto";
import { data } from "react-router";
import { type WebhookFormState, webhookFromForm } from "~/lib/webhooks";
import { getConfiguration, patchConfiguration } from "../configuration/configuration.server";
import { redirectWithToast } from "../http/flash.server";
import type { AuditActor } from "../privacy/audit.server";

export const isWebhookIntent = (form: FormData) =>
  String(form.get("intent") ?? "").startsWith("webhook-");

/** A fresh secret offered in the add form (32 characters, 192 bits). */
export const generateWebhookSecret = () => randomBytes(24).toString("base64url");

const newId = () => `wh-${randomBytes(4).toString("hex")}`;

/**
 * The settings page's webhook forms (one per endpoint, one to add; no JS needed): save adds or
 * replaces one endpoint, delete removes it. The list is stored through the one configuration save,
 * so the schema, the SSRF rules and the secret rules are the same as for PATCH /api/configuration.
 */
export async function handleWebhookAction(
  form: FormData,
  back: string,
  actor: AuditActor = "System",
) {
  const intent = String(form.get("intent"));
  const stored = getConfiguration().webhooks;
  const draft = webhookFromForm(form);
  const existing = stored.findIndex((w) => w.id === draft.id);

  if (intent === "webhook-delete") {
    if (existing < 0)
      return redirectWithToast(back, { type: "error", message: "Webhook nicht gefunden." });
    const result = patchConfiguration({ webhooks: stored.filter((w) => w.id !== draft.id) }, actor);
    return redirectWithToast(
      back,
      result.ok
        ? { type: "success", message: "Webhook entfernt." }
        : { type: "error", message: result.error },
    );
  }

  const isNew = existing < 0;
  const endpoint = { ...draft, id: isNew ? newId() : draft.id };
  const list = isNew
    ? [...stored, endpoint]
    : stored.map((w, i) => (i === existing ? endpoint : w));
  const result = patchConfiguration({ webhooks: list }, actor);
  if (result.ok) {
    return redirectWithToast(back, {
      type: "success",
      message: isNew ? "Webhook hinzugefügt." : "Webhook gespeichert.",
    });
  }
  const index = isNew ? list.length - 1 : existing;
  const errors: WebhookFormState["errors"] = {};
  for (const [path, messages] of Object.entries(result.fieldErrors ?? {})) {
    const match = path.match(/^webhooks\.(\d+)\.(url|events|secret|format)/);
    if (match && Number(match[1]) === index) {
      const field = match[2] as "url" | "events" | "secret" | "format";
      errors[field] = [...(errors[field] ?? []), ...messages];
    } else if (path === "webhooks" || path.startsWith("webhooks.")) {
      errors.form = [...(errors.form ?? []), ...messages];
    }
  }
  if (!Object.keys(errors).length) errors.form = [result.error];
  const webhook: WebhookFormState = {
    key: isNew ? "new" : draft.id,
    // A typed new secret is shown again to its author; a stored one never is.
    values: { url: draft.url, events: draft.events, format: draft.format, secret: draft.secret },
    errors,
  };
  return data({ webhook }, { status: 400 });
}
