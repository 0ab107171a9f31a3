import { afterAll, describe, expect, it } from "vitest";
import { SETTINGS_SECTIONS, settingsFormDefaults } from "~/lib/settings-form";
import { handleSettingsAction } from "~/routes/admin/settings.server";
import { getConfiguration } from "../configuration/configuration.server";
import { openBody } from "../mail/secrets.server";
import { stopWebhookWorker } from "./deliveries.server";
import { handleWebhookAction } from "./settings-actions.server";

afterAll(() => stopWebhookWorker());

const SECRET = "ein-langes-geheimnis-123";
const NEW_SECRET = "neues-geheimnis-0987654321";

function form(fields: Record<string, string | string[]>) {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) data.append(key, v);
  return data;
}

/** The settings form's fields as the page posts them (Conform's names: `a.b[0].c`). */
function flatten(value: unknown, prefix = "", into: Record<string, string> = {}) {
  if (Array.isArray(value))
    for (const [i, v] of value.entries()) flatten(v, `${prefix}[${i}]`, into);
  else if (value !== null && typeof value === "object")
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, into);
  else if (value !== null && value !== undefined && value !== false)
    into[prefix] = value === true ? "on" : String(value);
  return into;
}

const statusOf = (result: unknown) =>
  result instanceof Response
    ? result.status
    : (result as { init?: { status?: number } }).init?.status;

describe("settings page: webhook forms", () => {
  it("adds, refuses with the typed values, edits keeping the secret, survives the big form, removes", async () => {
    const added = await handleWebhookAction(
      form({
        intent: "webhook-save",
        webhookId: "",
        webhookUrl: "http://127.0.0.1:9/hook",
        webhookEvent: ["request.created", "appointment.booked"],
        webhookSecret: SECRET,
        webhookFormat: "slack",
      }),
      "/admin/settings",
    );
    expect(statusOf(added)).toBe(302);
    const [stored] = getConfiguration().webhooks;
    // A Slack-format URL is a credential: sealed at rest like the secret (ADR 262).
    expect(stored).toMatchObject({ format: "slack" });
    expect(stored.url).not.toContain("/hook");
    expect(openBody(stored.url)).toBe("http://127.0.0.1:9/hook");
    expect(stored.id).toMatch(/^wh-[0-9a-f]{8}$/);
    expect(stored.secret).not.toContain(SECRET);
    expect(openBody(stored.secret)).toBe(SECRET);

    const refused = (await handleWebhookAction(
      form({ intent: "webhook-save", webhookId: stored.id, webhookUrl: "nicht-url" }),
      "/admin/settings",
    )) as unknown as { data: { webhook: { key: string; errors: Record<string, string[]> } } };
    expect(statusOf(refused)).toBe(400);
    expect(refused.data.webhook.key).toBe(stored.id);
    expect(refused.data.webhook.errors.url?.[0]).toContain("gültige URL");
    expect(refused.data.webhook.errors.events?.[0]).toContain("mindestens ein Ereignis");

    await handleWebhookAction(
      form({
        intent: "webhook-save",
        webhookId: stored.id,
        webhookUrl: "http://127.0.0.1:9/hook",
        webhookEvent: "request.created",
        webhookSecret: "",
        webhookFormat: "json",
      }),
      "/admin/settings",
    );
    const [edited] = getConfiguration().webhooks;
    expect(edited).toMatchObject({ id: stored.id, url: "http://127.0.0.1:9/hook", format: "json" });
    expect(openBody(edited.secret)).toBe(SECRET);

    // A new target URL keeping the secret is refused at the secret (ADR 262); with a new one, saved.
    const moved = {
      intent: "webhook-save",
      webhookId: stored.id,
      webhookUrl: "http://127.0.0.1:9/neu",
      webhookEvent: "request.created",
      webhookFormat: "json",
    };
    const keptSecret = (await handleWebhookAction(
      form({ ...moved, webhookSecret: "" }),
      "/admin/settings",
    )) as unknown as { data: { webhook: { errors: Record<string, string[]> } } };
    expect(statusOf(keptSecret)).toBe(400);
    expect(keptSecret.data.webhook.errors.secret?.[0]).toContain("neues Secret");
    await handleWebhookAction(form({ ...moved, webhookSecret: NEW_SECRET }), "/admin/settings");
    const [movedHook] = getConfiguration().webhooks;
    expect(movedHook).toMatchObject({ id: stored.id, url: "http://127.0.0.1:9/neu" });
    expect(openBody(movedHook.secret)).toBe(NEW_SECRET);

    // The big settings form knows nothing of webhooks and keeps them as stored.
    const saved = await handleSettingsAction(
      form({
        ...flatten(settingsFormDefaults(getConfiguration())),
        intent: "save",
        section: [...SETTINGS_SECTIONS],
        systemPrompt: "Prompt",
      }),
      "/admin/settings",
    );
    expect(statusOf(saved)).toBe(302);
    expect(getConfiguration().systemPrompt).toBe("Prompt");
    expect(getConfiguration().webhooks.map((w) => w.id)).toEqual([stored.id]);
    expect(openBody(getConfiguration().webhooks[0].secret)).toBe(NEW_SECRET);

    await handleWebhookAction(
      form({ intent: "webhook-delete", webhookId: stored.id }),
      "/admin/settings",
    );
    expect(getConfiguration().webhooks).toEqual([]);
  });
});
