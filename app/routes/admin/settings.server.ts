import { data, type RouterContextProvider } from "react-router";
import { type Configuration, ConfigurationSchema } from "~/lib/configuration";
import {
  addExternalEmail,
  addPreparationField,
  draftFromForm,
  missingSections,
  SECTIONS_MISSING,
  SETTINGS_NOT_SAVED,
  settingsNumberErrors,
} from "~/lib/settings-form";
import { listAdmins } from "~/server/admins.server";
import { getConfiguration, saveConfiguration } from "~/server/configuration.server";
import { dataWithToast, redirectWithToast } from "~/server/flash.server";
import type { AuditActor } from "~/server/privacy/audit.server";
import { maskedConfiguration } from "~/server/webhooks/config.server";

export type SettingsActionData = {
  draft: Configuration;
  message?: string;
  error?: string;
  fieldErrors?: Record<string, string[]>;
  newEmail?: string;
  newField?: { name: string; label: string; placeholder: string };
  /** The field to focus (and so scroll into view): the first refused one. */
  focus?: string;
};

/**
 * One form, several buttons: list edits (add/remove address, add/delete field) change the draft
 * and show it again (without JS too); only 'save' validates, clamps and stores the whole document.
 */
export async function handleSettingsAction(
  form: FormData,
  back: string,
  /** The page's request and context: a refused save answers with a toast too. */
  http?: { request: Request; context: Readonly<RouterContextProvider>; actor?: AuditActor },
) {
  const intent = String(form.get("intent") ?? "save");
  const admins = listAdmins().map((a) => ({ id: a.id, username: a.username, email: a.email }));
  // Webhooks have their own forms (webhooks/settings-actions.server.ts), the 2FA rule its own on
  // /admin/account, the AI budget is set through /api/configuration only (for now): this one keeps
  // them as stored.
  const { webhooks, security, ai } = getConfiguration();
  const raw = { ...draftFromForm(form, admins), webhooks, security, ai };
  const reply = (
    body: Omit<SettingsActionData, "draft"> & { draft?: Configuration },
    status = 200,
  ) =>
    data<SettingsActionData>(
      { ...body, draft: maskedConfiguration(body.draft ?? raw) },
      { status },
    );
  // A refused save: the draft again, the first bad field focused, and a toast that says so.
  const refuse = (body: Omit<SettingsActionData, "draft"> & { draft?: Configuration }) =>
    http
      ? dataWithToast<SettingsActionData>(
          http.request,
          http.context,
          { ...body, draft: maskedConfiguration(body.draft ?? raw) },
          { type: "error", message: body.error ?? SETTINGS_NOT_SAVED },
          400,
        )
      : reply(body, 400);

  if (intent === "add-email") {
    const newEmail = String(form.get("newEmail") ?? "");
    const result = addExternalEmail(raw.emailNotifications.externalEmails, newEmail);
    if (!result.ok)
      return reply({ fieldErrors: { newEmail: [result.error] }, newEmail, focus: "newEmail" }, 400);
    return reply({
      draft: {
        ...raw,
        emailNotifications: { ...raw.emailNotifications, externalEmails: result.list },
      },
      message: "Adresse hinzugefügt – zum Übernehmen bitte speichern.",
    });
  }
  if (intent.startsWith("remove-email:")) {
    const email = intent.slice("remove-email:".length);
    const list = raw.emailNotifications.externalEmails.filter((e) => e !== email);
    return reply({
      draft: { ...raw, emailNotifications: { ...raw.emailNotifications, externalEmails: list } },
      message: "Adresse entfernt – zum Übernehmen bitte speichern.",
    });
  }
  if (intent === "add-field") {
    const newField = {
      name: String(form.get("newFieldName") ?? ""),
      label: String(form.get("newFieldLabel") ?? ""),
      placeholder: String(form.get("newFieldPlaceholder") ?? ""),
    };
    const result = addPreparationField(raw.preparationFields, newField);
    if (!result.ok)
      return reply(
        { fieldErrors: { newField: [result.error] }, newField, focus: "newFieldName" },
        400,
      );
    return reply({
      draft: { ...raw, preparationFields: result.fields },
      message: "Feld hinzugefügt – zum Übernehmen bitte speichern.",
    });
  }
  if (intent.startsWith("delete-field:")) {
    const id = Number(intent.slice("delete-field:".length));
    return reply({
      draft: {
        ...raw,
        preparationFields: raw.preparationFields.filter((f) => Number(f.id) !== id),
      },
      message: "Feld entfernt – zum Übernehmen bitte speichern.",
    });
  }
  // A post without every section's marker (empty, truncated, hand-made) changes nothing.
  if (missingSections(form).length > 0) {
    return refuse({ error: SECTIONS_MISSING, draft: getConfiguration() });
  }
  // Numbers outside their range are refused at the field (the browser checks them first).
  const numberErrors = settingsNumberErrors(form);
  if (Object.keys(numberErrors).length > 0) {
    return refuse({
      error: SETTINGS_NOT_SAVED,
      fieldErrors: numberErrors,
      focus: Object.keys(numberErrors)[0],
    });
  }
  const result = saveConfiguration(raw, http?.actor);
  if (!result.ok) {
    const parsed = ConfigurationSchema.safeParse(raw);
    return refuse({
      error: result.error,
      fieldErrors: result.fieldErrors,
      draft: parsed.success ? parsed.data : raw,
      focus: Object.keys(result.fieldErrors ?? {})[0],
    });
  }
  return redirectWithToast(back, {
    type: "success",
    message: "Konfiguration erfolgreich gespeichert!",
  });
}
