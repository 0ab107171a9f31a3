import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, type RouterContextProvider } from "react-router";
import {
  configurationFromSettings,
  LIST_EDIT_MESSAGES,
  missingSections,
  SECTIONS_MISSING,
  SETTINGS_NOT_SAVED,
  SettingsFormSchema,
} from "~/lib/settings-form";
import { listAdmins } from "~/server/accounts/admins.server";
import { getConfiguration, saveConfiguration } from "~/server/configuration/configuration.server";
import { dataWithToast, redirectWithToast } from "~/server/http/flash.server";
import type { AuditActor } from "~/server/privacy/audit.server";

export type SettingsActionData = {
  /** Conform's answer: the posted form (a list intent applied) and its errors. */
  settings: SubmissionResult<string[]> | null;
  /** A list edit without JS: done, but not saved yet. */
  message?: string;
  /** A refused post as a whole (the page shows it above the form). */
  error?: string;
  /** The field to focus (and so scroll into view): the first refused one. */
  focus?: string;
};

/** `a.0.b` (Zod paths of the configuration) as the form's names, `a[0].b`. */
const formName = (path: string) => path.replace(/\.(\d+)(?=\.|$)/g, "[$1]");

/**
 * One form, parsed by Conform with the page's schema: a list intent (insert/remove/reorder, posted
 * by its button without JS) comes back applied and is shown again; a save is validated, stored
 * and answered with a toast either way.
 */
export async function handleSettingsAction(
  form: FormData,
  back: string,
  /** The page's request and context: a refused save answers with a toast too. */
  http?: { request: Request; context: Readonly<RouterContextProvider>; actor?: AuditActor },
) {
  const submission = parseWithZod(form, { schema: SettingsFormSchema });
  const refuse = (body: SettingsActionData) =>
    http
      ? dataWithToast<SettingsActionData>(
          http.request,
          http.context,
          body,
          {
            type: "error",
            message: body.error ?? SETTINGS_NOT_SAVED,
          },
          400,
        )
      : data(body, { status: 400 });

  const intent = submission.reply().intent;
  if (intent) {
    const list = "name" in intent.payload ? String(intent.payload.name) : "";
    return data<SettingsActionData>({
      settings: submission.reply(),
      message: LIST_EDIT_MESSAGES[list]?.[intent.type],
    });
  }
  // A post without every section's marker (empty, truncated, hand-made) changes nothing.
  if (missingSections(form).length > 0) return refuse({ settings: null, error: SECTIONS_MISSING });
  if (submission.status !== "success") {
    return refuse({
      settings: submission.reply(),
      error: SETTINGS_NOT_SAVED,
      focus: Object.keys(submission.error ?? {})[0],
    });
  }
  const admins = listAdmins();
  // The form replaces the sections it shows; everything it does not show is kept as stored
  // (webhooks have their own forms, the 2FA rule is on /admin/account, the AI budget and other
  // API-only keys are set through /api/configuration).
  const stored = getConfiguration();
  const fromForm = configurationFromSettings(submission.value, admins);
  // The logo has its own upload form: the settings form keeps the stored one.
  const result = saveConfiguration(
    {
      ...stored,
      ...fromForm,
      branding: { ...fromForm.branding, logo: stored.branding.logo },
      ai: {
        dailyLimit: fromForm.ai?.dailyLimit,
        manualDailyLimit: fromForm.ai?.manualDailyLimit ?? stored.ai.manualDailyLimit,
      },
      // Saving the week of "Terminbuchung" reviews its hours (go-live item `scheduling`).
      ...(fromForm.scheduling
        ? { scheduling: { ...fromForm.scheduling, hoursReviewed: true } }
        : {}),
    },
    http?.actor,
  );
  if (!result.ok) {
    const fieldErrors = Object.fromEntries(
      Object.entries(result.fieldErrors ?? {}).map(([path, messages]) => [
        formName(path),
        messages,
      ]),
    );
    return refuse({
      settings: submission.reply({ formErrors: [result.error], fieldErrors }),
      error: result.error,
      focus: Object.keys(fieldErrors)[0],
    });
  }
  return redirectWithToast(back, {
    type: "success",
    message: "Konfiguration erfolgreich gespeichert!",
  });
}
