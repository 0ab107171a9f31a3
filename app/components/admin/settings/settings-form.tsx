import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { Configuration } from "~/lib/configuration";
import { isSettingsNumberField, numberRangeMessage } from "~/lib/settings-form";
import { AppointmentSettings, type EventTypeOption } from "./appointment-settings";
import { BannerSettings } from "./banner-settings";
import { NotificationSettings } from "./notification-settings";
import { type NewFieldDraft, PreparationFieldSettings } from "./preparation-field-settings";
import { PrivacySettings } from "./privacy-settings";
import { SettingsErrors } from "./section";
import { SystemPromptSettings } from "./system-prompt-settings";
import { UploadSettings } from "./upload-settings";
import { useUnsavedChanges } from "./use-unsaved-changes";

type Admin = { id: number; username: string; email: string };

export type SettingsFormProps = {
  config: Configuration;
  admins: Admin[];
  eventTypes: EventTypeOption[];
  action: string;
  fieldErrors?: Record<string, string[]>;
  error?: string;
  message?: string;
  newEmail?: string;
  newField?: NewFieldDraft;
  /** The field a refused post names first: focused, so it is scrolled into view. */
  focus?: string;
  /** The form shows a draft the server did not save (a list edit or a refused save). */
  draft?: boolean;
};

/**
 * The whole configuration in one form with one save button (list edits work without JS too).
 * Each card is its own component in this folder; a new card also adds its marker to
 * SETTINGS_SECTIONS (lib/settings-form.ts).
 *
 * Fields scroll into view above the sticky save bar (`scroll-margin-bottom`, app.css
 * `.settings-form`), whether the browser's own check or the server's answer focuses them; with JS
 * the browser's message is the German one of the server and it also stays under the field.
 */
export function SettingsForm(props: SettingsFormProps) {
  const { config } = props;
  // Webhooks have their own forms: saving one must not reset what is typed here.
  const key = useMemo(() => JSON.stringify({ ...config, webhooks: undefined }), [config]);
  return <SettingsFormBody key={key} {...props} />;
}

function SettingsFormBody(props: SettingsFormProps) {
  const { config } = props;
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const form = useRef<HTMLFormElement>(null);
  const { dirty, check } = useUnsavedChanges(form, Boolean(props.draft));
  // The browser refused a field (JS only): its German message under it until it is edited.
  const [browserErrors, setBrowserErrors] = useState<Record<string, string[]>>({});
  const errors = useMemo(
    () => ({ fieldErrors: { ...props.fieldErrors, ...browserErrors }, focus: props.focus }),
    [props.fieldErrors, browserErrors, props.focus],
  );

  // With JS, the answer re-renders this form in place: focus the refused field like autoFocus does.
  useEffect(() => {
    if (!props.focus) return;
    const field = form.current?.elements.namedItem(props.focus);
    if (field instanceof HTMLElement) field.focus();
  }, [props.focus]);

  const onInvalid = (event: FormEvent<HTMLFormElement>) => {
    const field = event.target;
    if (!(field instanceof HTMLInputElement) || !field.name) return;
    const message = isSettingsNumberField(field.name)
      ? numberRangeMessage(field.name)
      : field.validationMessage;
    // The bubble the browser shows next reads this: German, like the server's message.
    if (field.validationMessage !== message) field.setCustomValidity(message);
    setBrowserErrors((all) => ({ ...all, [field.name]: [message] }));
  };
  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const field = event.target;
    if (field instanceof HTMLInputElement && field.name) {
      field.setCustomValidity("");
      if (browserErrors[field.name]) setBrowserErrors(({ [field.name]: _gone, ...rest }) => rest);
    }
    check();
  };

  return (
    <SettingsErrors.Provider value={errors}>
      <Form
        ref={form}
        method="post"
        action={props.action}
        className="settings-form space-y-5"
        onInvalidCapture={onInvalid}
        onInput={onInput}
        onChange={check}
      >
        {/* Enter in a text field submits this first button: save (not "add"). */}
        <button
          type="submit"
          name="intent"
          value="save"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
        >
          Speichern
        </button>
        {props.message ? <Alert tone="info">{props.message}</Alert> : null}
        {props.error ? <Alert>{props.error}</Alert> : null}

        <SystemPromptSettings config={config} fieldErrors={errors.fieldErrors} />
        <NotificationSettings
          config={config}
          admins={props.admins}
          fieldErrors={errors.fieldErrors}
          newEmail={props.newEmail}
        />
        <BannerSettings config={config} />
        <UploadSettings config={config} />
        <PreparationFieldSettings
          config={config}
          fieldErrors={errors.fieldErrors}
          newField={props.newField}
        />
        <AppointmentSettings config={config} eventTypes={props.eventTypes} />
        <PrivacySettings config={config} fieldErrors={errors.fieldErrors} />

        <div
          className="sticky bottom-0 flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 bg-slate-50/90 py-3 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90"
          data-save-bar=""
        >
          <p aria-live="polite" className="text-sm text-amber-800 dark:text-amber-200">
            {hydrated && dirty ? "Ungespeicherte Änderungen" : ""}
          </p>
          <Button type="submit" name="intent" value="save" disabled={saving}>
            {saving ? "Speichert …" : "Konfiguration speichern"}
          </Button>
        </div>
      </Form>
    </SettingsErrors.Provider>
  );
}
