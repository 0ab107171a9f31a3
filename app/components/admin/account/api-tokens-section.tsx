import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { ConfirmAction, ConfirmationStep } from "~/components/ui/confirm-action";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import { FocusOnArrival } from "~/components/ui/focus-on-arrival";
import { Field, FormErrors, useConformForm } from "~/components/ui/form";
import {
  API_SCOPE_LABELS,
  API_SCOPES,
  API_TOKEN_EXPIRY_DAYS,
  API_TOKEN_MESSAGES,
  ApiTokenCreateSchema,
  type ApiTokenJson,
} from "~/lib/api-tokens";
import { isConfirmationStep } from "~/lib/confirmation";
import { formatDate, formatDateTime } from "~/lib/format";
import { AccountSection } from "./account-section";

/** Posts back to this section, so without JavaScript the answer lands here. */
const BACK = "/admin/account#api-zugaenge";

type Reply = {
  intent: string;
  result?: SubmissionResult<string[]>;
  message?: string;
  error?: string;
  created?: { name: string; token: string };
};

/**
 * "API-Zugänge" on /admin/account (ADR 260): tokens for integrations (n8n, a CRM) with
 * scopes from a fixed list and an optional expiry; the token is shown once after creating it.
 * Plain form posts, so it all works without JavaScript.
 */
export function ApiTokensSection({
  tokens,
  twoFactorEnabled,
  reply,
  confirmation,
}: {
  tokens: ApiTokenJson[];
  twoFactorEnabled: boolean;
  reply?: Reply;
  /** The action's answer when it is a no-JS confirmation step. */
  confirmation?: unknown;
}) {
  const revokeStep =
    isConfirmationStep(confirmation) &&
    confirmation.confirmation.fields.intent === "api-token-revoke"
      ? confirmation
      : undefined;
  const busy = useNavigation().state === "submitting";
  const revokeReply = reply?.intent === "api-token-revoke" ? reply : undefined;
  const createReply = reply?.intent === "api-token-create" ? reply : undefined;
  return (
    <AccountSection
      id="api-zugaenge"
      title="API-Zugänge"
      description="Schlüssel für Integrationen (z. B. n8n oder ein CRM) als „Authorization: Bearer …“. Ein Schlüssel erreicht nur die gewählten Bereiche – nie Benutzer, Einstellungen, API-Zugänge, Exporte oder Löschungen – und keine Seiten des Admin-Bereichs."
    >
      {/* Without JavaScript "Widerrufen" asks here first (the page lands at #api-zugaenge). */}
      {revokeStep ? <ConfirmationStep data={revokeStep} action={BACK} /> : null}
      {revokeReply ? (
        // The token's button is gone with the answer: the answer takes the focus.
        <FocusOnArrival arrival={revokeReply} className="space-y-3">
          {revokeReply.message ? <Alert tone="success">{revokeReply.message}</Alert> : null}
          {revokeReply.error ? <Alert>{revokeReply.error}</Alert> : null}
        </FocusOnArrival>
      ) : null}
      {tokens.length ? (
        <ul aria-label="Ihre API-Zugänge" className="space-y-2">
          {tokens.map((t) => (
            <li
              key={t.id}
              data-testid="api-token-row"
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700"
            >
              <div className="min-w-0 space-y-0.5">
                <p className="font-medium">
                  {t.name}
                  {t.revokedAt ? (
                    <span className="ml-2 text-xs font-normal text-slate-600 dark:text-slate-300">
                      (widerrufen {formatDateTime(t.revokedAt)})
                    </span>
                  ) : null}
                </p>
                <p className="break-words font-mono text-xs">{t.scopes.join(", ")}</p>
                <p className="text-slate-600 dark:text-slate-300">
                  Erstellt {formatDateTime(t.createdAt)} ·{" "}
                  {t.lastUsedAt
                    ? `Zuletzt benutzt ${formatDateTime(t.lastUsedAt)}`
                    : "Noch nicht benutzt"}{" "}
                  · {t.expiresAt ? `Gültig bis ${formatDate(t.expiresAt)}` : "Ohne Ablaufdatum"}
                </p>
              </div>
              {t.revokedAt ? null : (
                <ConfirmAction
                  action={BACK}
                  fields={{ intent: "api-token-revoke", id: String(t.id) }}
                  title={API_TOKEN_MESSAGES.revokeTitle}
                  message={API_TOKEN_MESSAGES.revokeConfirm(t.name)}
                  confirmLabel="Widerrufen"
                  label={
                    <>
                      Widerrufen<span className="sr-only"> ({t.name})</span>
                    </>
                  }
                  disabled={busy}
                />
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">Noch keine API-Zugänge.</p>
      )}
      <CreateForm reply={createReply} twoFactorEnabled={twoFactorEnabled} busy={busy} />
    </AccountSection>
  );
}

function CreateForm({
  reply,
  twoFactorEnabled,
  busy,
}: {
  reply?: Reply;
  twoFactorEnabled: boolean;
  busy: boolean;
}) {
  const [form, fields] = useConformForm(ApiTokenCreateSchema, reply?.result, {
    id: "api-token-create",
    // "" = no expiry: a reset after creating selects it again (not an empty select).
    defaultValue: { expiresInDays: "" },
  });
  const chosen = new Set((fields.scopes.initialValue as string[] | undefined) ?? []);
  return (
    <div className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-700">
      <h3 id="api-token-neu" className="scroll-mt-24 font-semibold">
        Neuen API-Zugang erstellen
      </h3>
      {reply?.message || reply?.created ? (
        // The new key takes the focus (with JavaScript; without it the page lands at this block).
        <FocusOnArrival arrival={reply.created} className="space-y-3">
          {reply.message ? <Alert tone="success">{reply.message}</Alert> : null}
          {reply.created ? <CreatedToken created={reply.created} /> : null}
        </FocusOnArrival>
      ) : null}
      <FormErrors errors={form.errors} />
      {/* Posts back to this block, so without JavaScript the answer lands where it was asked. */}
      <Form
        method="post"
        action="/admin/account#api-token-neu"
        {...getFormProps(form)}
        className="space-y-4"
      >
        <input type="hidden" name="intent" value="api-token-create" />
        <Field meta={fields.name} label="Name" required hint="Wofür der Zugang ist, z. B. „n8n“." />
        <fieldset aria-describedby={fields.scopes.errors ? fields.scopes.errorId : undefined}>
          <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">
            Berechtigungen
          </legend>
          <div className="space-y-1.5">
            {API_SCOPES.map((scope) => (
              <label key={`${form.key}-${scope}`} className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  name={fields.scopes.name}
                  value={scope}
                  defaultChecked={chosen.has(scope)}
                  className="mt-0.5 size-4"
                />
                <span>
                  <code className="font-mono text-xs">{scope}</code> – {API_SCOPE_LABELS[scope]}
                </span>
              </label>
            ))}
          </div>
          <FieldErrors id={fields.scopes.errorId} errors={fields.scopes.errors} />
        </fieldset>
        <div>
          <label
            htmlFor={fields.expiresInDays.id}
            className="mb-1 block text-sm font-medium text-slate-700 dark:text-slate-200"
          >
            Gültigkeit
          </label>
          <select
            key={`${form.key}-expiry`}
            id={fields.expiresInDays.id}
            name={fields.expiresInDays.name}
            defaultValue={String(fields.expiresInDays.initialValue ?? "")}
            className={inputClass}
          >
            <option value="">Ohne Ablaufdatum</option>
            {API_TOKEN_EXPIRY_DAYS.map((d) => (
              <option key={d} value={d}>
                {d} Tage
              </option>
            ))}
          </select>
          <FieldErrors id={fields.expiresInDays.errorId} errors={fields.expiresInDays.errors} />
        </div>
        <Field
          meta={fields.password}
          label="Aktuelles Passwort"
          type="password"
          autoComplete="current-password"
          hint={
            twoFactorEnabled
              ? "Zur Bestätigung: Ihr Passwort oder ein aktueller Code aus der App."
              : "Zur Bestätigung, dass Sie es sind."
          }
        />
        {twoFactorEnabled ? (
          <Field
            meta={fields.code}
            label="Oder: Code aus der App"
            autoComplete="one-time-code"
            inputMode="numeric"
          />
        ) : null}
        <Button type="submit" disabled={busy}>
          API-Zugang erstellen
        </Button>
      </Form>
    </div>
  );
}

function CreatedToken({ created }: { created: { name: string; token: string } }) {
  return (
    <div className="space-y-2 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm dark:border-amber-800 dark:bg-amber-950">
      <p className="font-semibold">Schlüssel für „{created.name}“</p>
      <code
        data-testid="api-token"
        className="block break-all rounded bg-white px-2 py-1 font-mono dark:bg-slate-900"
      >
        {created.token}
      </code>
    </div>
  );
}
