import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { CheckboxGroup } from "~/components/ui/checkbox-group";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import {
  isUnreadableSecretMask,
  SECRET_UNREADABLE,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookEndpoint,
  type WebhookFormState,
} from "~/lib/webhooks";
import { label } from "./section";
import { useSettingsIndexEntry } from "./settings-index";

type Props = {
  /** The stored endpoints, secrets masked. */
  webhooks: WebhookEndpoint[];
  /** A freshly generated secret offered in the add form. */
  generatedSecret: string;
  action: string;
  /** The refused form (typed values and errors), when the last post was one. */
  state?: WebhookFormState;
};

/**
 * Outgoing webhooks on the settings page: one small form per endpoint and one to add (each its own
 * post, so it works without JS and never touches the big settings form).
 */
export function WebhookSettings({ webhooks, generatedSecret, action, state }: Props) {
  useSettingsIndexEntry("webhooks", "Webhooks");
  return (
    <Card id="webhooks" className="scroll-mt-24 space-y-4 p-5">
      <div>
        <h2 id="webhooks-heading" className="text-lg font-semibold">
          Webhooks
        </h2>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Meldet neue Anfragen, Statusänderungen und Termine per HTTP-POST an andere Systeme (z. B.
          CRM oder Slack). Jede Zustellung ist mit HMAC-SHA256 signiert (Header X-Webhook-Signature)
          und erscheint im Postausgang.
        </p>
      </div>
      {webhooks.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">Noch keine Webhooks.</p>
      ) : null}
      {webhooks.map((w, i) => (
        <WebhookForm
          key={`${w.id}:${w.url}:${w.events.join()}:${w.format}:${w.secret}`}
          formKey={w.id}
          title={`Webhook ${i + 1}`}
          endpoint={w}
          action={action}
          state={state?.key === w.id ? state : undefined}
        />
      ))}
      <WebhookForm
        key={`new:${webhooks.length}`}
        formKey="new"
        title="Neuen Webhook hinzufügen"
        endpoint={{
          id: "",
          url: "",
          events: [...WEBHOOK_EVENTS],
          secret: generatedSecret,
          format: "json",
        }}
        action={action}
        state={state?.key === "new" ? state : undefined}
      />
    </Card>
  );
}

function WebhookForm({
  formKey,
  title,
  endpoint,
  action,
  state,
}: {
  formKey: string;
  title: string;
  endpoint: WebhookEndpoint;
  action: string;
  state?: WebhookFormState;
}) {
  const isNew = formKey === "new";
  const values = state?.values ?? {
    ...endpoint,
    secret: isNew ? endpoint.secret : "",
  };
  const errors = state?.errors ?? {};
  const id = (field: string) => `webhook-${formKey}-${field}`;
  const invalid = (field: keyof WebhookFormState["errors"]) => (errors[field] ? true : undefined);
  const unreadable = !isNew && isUnreadableSecretMask(endpoint.secret) ? true : undefined;
  const secretErrors = errors.secret ?? (unreadable ? [SECRET_UNREADABLE] : undefined);
  return (
    <Form
      method="post"
      action={action}
      className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700"
      aria-labelledby={id("title")}
    >
      <h3 id={id("title")} className="font-semibold">
        {title}
      </h3>
      <input type="hidden" name="webhookId" value={endpoint.id} />
      {errors.form ? <Alert>{errors.form.join(" ")}</Alert> : null}
      <div>
        <label htmlFor={id("url")} className={label}>
          URL
        </label>
        <input
          id={id("url")}
          name="webhookUrl"
          type="url"
          required
          placeholder="https://crm.example.com/hooks/anfragen"
          defaultValue={values.url}
          className={inputClass}
          aria-invalid={invalid("url")}
          aria-describedby={errors.url ? id("url-error") : undefined}
        />
        <FieldErrors id={id("url-error")} errors={errors.url} />
      </div>
      <div>
        <label htmlFor={id("format")} className={label}>
          Format
        </label>
        <select
          id={id("format")}
          name="webhookFormat"
          defaultValue={values.format}
          className={`${inputClass} max-w-xs`}
        >
          <option value="json">JSON (event, occurredAt, data)</option>
          <option value="slack">Slack (Incoming Webhook)</option>
        </select>
        <FieldErrors errors={errors.format} />
      </div>
      <CheckboxGroup
        legend="Ereignisse"
        name="webhookEvent"
        layout="grid"
        describedBy={errors.events ? id("events-error") : undefined}
        options={WEBHOOK_EVENTS.map((event) => ({
          value: event,
          label: WEBHOOK_EVENT_LABELS[event],
          checked: values.events.includes(event),
        }))}
      >
        <FieldErrors id={id("events-error")} errors={errors.events} />
      </CheckboxGroup>
      <div>
        <label htmlFor={id("secret")} className={label}>
          Secret
        </label>
        <input
          id={id("secret")}
          name="webhookSecret"
          type="text"
          autoComplete="off"
          spellCheck={false}
          placeholder={isNew ? undefined : `Gespeichert: ${endpoint.secret}`}
          defaultValue={values.secret}
          className={`${inputClass} font-mono`}
          aria-invalid={invalid("secret") || unreadable}
          aria-describedby={`${id("secret-hint")}${secretErrors ? ` ${id("secret-error")}` : ""}`}
        />
        <p id={id("secret-hint")} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
          {isNew
            ? "Ein zufälliges Secret ist vorgeschlagen. Bitte kopieren Sie es jetzt – nach dem Speichern wird es nur noch maskiert angezeigt."
            : `Gespeichert: ${endpoint.secret}. Leer lassen, um das gespeicherte Secret zu behalten.`}
        </p>
        <FieldErrors id={id("secret-error")} errors={secretErrors} />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" name="intent" value="webhook-save" size="sm">
          {isNew ? "Webhook hinzufügen" : "Webhook speichern"}
        </Button>
        {isNew ? null : (
          <Button type="submit" name="intent" value="webhook-delete" size="sm" variant="secondary">
            Webhook entfernen
          </Button>
        )}
      </div>
    </Form>
  );
}
