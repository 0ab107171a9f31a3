import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import type { Configuration } from "~/lib/configuration";
import { AppointmentSettings, type EventTypeOption } from "./appointment-settings";
import { BannerSettings } from "./banner-settings";
import { NotificationSettings } from "./notification-settings";
import { type NewFieldDraft, PreparationFieldSettings } from "./preparation-field-settings";
import { PrivacySettings } from "./privacy-settings";
import { SystemPromptSettings } from "./system-prompt-settings";
import { UploadSettings } from "./upload-settings";

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
};

/**
 * The whole configuration in one form with one save button (list edits work without JS too).
 * Each card is its own component in this folder; a new card also adds its marker to
 * SETTINGS_SECTIONS (lib/settings-form.ts).
 */
export function SettingsForm(props: SettingsFormProps) {
  const { config, fieldErrors } = props;
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";

  return (
    <Form method="post" action={props.action} className="space-y-5" key={JSON.stringify(config)}>
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

      <SystemPromptSettings config={config} fieldErrors={fieldErrors} />
      <NotificationSettings
        config={config}
        admins={props.admins}
        fieldErrors={fieldErrors}
        newEmail={props.newEmail}
      />
      <BannerSettings config={config} />
      <UploadSettings config={config} />
      <PreparationFieldSettings
        config={config}
        fieldErrors={fieldErrors}
        newField={props.newField}
      />
      <AppointmentSettings config={config} eventTypes={props.eventTypes} />
      <PrivacySettings config={config} fieldErrors={fieldErrors} />

      <div className="sticky bottom-0 flex justify-end border-t border-slate-200 bg-slate-50/90 py-3 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
        <Button type="submit" name="intent" value="save" disabled={saving}>
          {saving ? "Speichert …" : "Konfiguration speichern"}
        </Button>
      </div>
    </Form>
  );
}
