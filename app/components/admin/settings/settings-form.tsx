import { Form, Link, useNavigation } from "react-router";
import { BookingDemoButton } from "~/components/booking/booking-demo-button";
import { Button, buttonClass } from "~/components/ui/button";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import { useModal } from "~/components/ui/modal";
import { useHydrated } from "~/components/ui/use-hydrated";
import { type Configuration, DOCUMENT_TYPES, IMAGE_TYPES } from "~/lib/configuration";
import { DELETE_FIELD_CONFIRM } from "~/lib/settings-form";
import { NotificationSettings } from "./notification-settings";
import { PrivacySettings } from "./privacy-settings";
import { label, Section } from "./section";

type Admin = { id: number; username: string; email: string };
type EventTypeOption = { key: string; title: string; lengthInMinutes: number };

export type SettingsFormProps = {
  config: Configuration;
  admins: Admin[];
  eventTypes: EventTypeOption[];
  action: string;
  fieldErrors?: Record<string, string[]>;
  error?: string;
  message?: string;
  newEmail?: string;
  newField?: { name: string; label: string; placeholder: string };
};

/** The whole configuration in one form with one save button (list edits work without JS too). */
export function SettingsForm(props: SettingsFormProps) {
  const { config, admins, eventTypes, action, fieldErrors } = props;
  const hydrated = useHydrated();
  const modal = useModal();
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";

  return (
    <Form method="post" action={action} className="space-y-5" key={JSON.stringify(config)}>
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

      <Section
        name="systemPrompt"
        title="KI-System-Prompt"
        description="Wird der KI bei der automatischen Vorbereitung als System-Prompt mitgegeben."
      >
        <label htmlFor="systemPrompt" className="sr-only">
          System-Prompt
        </label>
        <textarea
          id="systemPrompt"
          name="systemPrompt"
          rows={6}
          defaultValue={config.systemPrompt}
          className={inputClass}
        />
        <FieldErrors errors={fieldErrors?.systemPrompt} />
      </Section>

      <NotificationSettings
        config={config}
        admins={admins}
        fieldErrors={fieldErrors}
        newEmail={props.newEmail}
      />

      <Section
        name="banner"
        title="Info-Banner"
        description="Ein schließbarer Hinweis oben auf der Startseite."
      >
        <label className="inline-flex items-center gap-2">
          <input type="checkbox" name="bannerEnabled" defaultChecked={config.infoBanner.enabled} />
          Banner anzeigen
        </label>
        <div>
          <label htmlFor="bannerText" className={label}>
            Text
          </label>
          <input
            id="bannerText"
            name="bannerText"
            defaultValue={config.infoBanner.text}
            className={inputClass}
          />
        </div>
      </Section>

      <Section
        name="uploads"
        title="Datei-Uploads"
        description="Grenzen für Anhänge im Kontaktformular (Dateien 1–10, je 1–25 MB, gesamt 10–100 MB)."
      >
        <div className="grid gap-4 sm:grid-cols-3">
          <div>
            <label htmlFor="maxFilesPerRequest" className={label}>
              Max. Dateien pro Anfrage
            </label>
            <input
              id="maxFilesPerRequest"
              name="maxFilesPerRequest"
              type="number"
              min={1}
              max={10}
              defaultValue={config.uploadSettings.maxFilesPerRequest}
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor="maxFileSizeMB" className={label}>
              Max. Größe pro Datei (MB)
            </label>
            <input
              id="maxFileSizeMB"
              name="maxFileSizeMB"
              type="number"
              min={1}
              max={25}
              defaultValue={config.uploadSettings.maxFileSizeMB}
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor="maxTotalSizeMB" className={label}>
              Max. Gesamtgröße (MB)
            </label>
            <input
              id="maxTotalSizeMB"
              name="maxTotalSizeMB"
              type="number"
              min={10}
              max={100}
              defaultValue={config.uploadSettings.maxTotalSizeMB}
              className={inputClass}
            />
          </div>
        </div>
        <fieldset>
          <legend className={label}>Erlaubte Bildtypen</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {IMAGE_TYPES.map((t) => (
              <label key={t} className="inline-flex items-center gap-1">
                <input
                  type="checkbox"
                  name="imageType"
                  value={t}
                  defaultChecked={config.uploadSettings.allowedImageTypes.includes(t)}
                />{" "}
                {t}
              </label>
            ))}
          </div>
        </fieldset>
        <fieldset>
          <legend className={label}>Erlaubte Dokumenttypen</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            {DOCUMENT_TYPES.map((t) => (
              <label key={t} className="inline-flex items-center gap-1">
                <input
                  type="checkbox"
                  name="documentType"
                  value={t}
                  defaultChecked={config.uploadSettings.allowedDocumentTypes.includes(t)}
                />{" "}
                {t}
              </label>
            ))}
          </div>
        </fieldset>
      </Section>

      <Section
        name="preparationFields"
        title="Preparation-Felder"
        description="Felder, die das Team (oder die KI) für jede Anfrage ausfüllt."
      >
        <ul className="space-y-3">
          {config.preparationFields.map((f) => (
            <li
              key={f.id}
              className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[8rem_1fr_1fr_auto] sm:items-end dark:border-slate-700"
            >
              <input type="hidden" name="fieldId" value={f.id} />
              <input type="hidden" name="fieldName" value={f.name} />
              <p className="font-mono text-sm">{f.name}</p>
              <div>
                <label
                  htmlFor={`fieldLabel-${f.id}`}
                  className="text-xs text-slate-500 dark:text-slate-400"
                >
                  Label
                </label>
                <input
                  id={`fieldLabel-${f.id}`}
                  name="fieldLabel"
                  defaultValue={f.label}
                  className={inputClass}
                />
              </div>
              <div>
                <label
                  htmlFor={`fieldPlaceholder-${f.id}`}
                  className="text-xs text-slate-500 dark:text-slate-400"
                >
                  Platzhalter
                </label>
                <input
                  id={`fieldPlaceholder-${f.id}`}
                  name="fieldPlaceholder"
                  defaultValue={f.placeholder}
                  className={inputClass}
                />
              </div>
              <button
                type="submit"
                name="intent"
                value={`delete-field:${f.id}`}
                className={buttonClass("danger", "sm")}
                aria-label={`Feld ${f.label} löschen`}
                onClick={async (e) => {
                  if (!hydrated) return;
                  e.preventDefault();
                  const button = e.currentTarget;
                  if (
                    await modal.confirm({
                      message: DELETE_FIELD_CONFIRM,
                      title: "Feld löschen",
                      danger: true,
                    })
                  ) {
                    button.form?.requestSubmit(button);
                  }
                }}
              >
                Löschen
              </button>
            </li>
          ))}
        </ul>
        <div className="grid gap-2 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
          <div>
            <label htmlFor="newFieldName" className="text-xs text-slate-500 dark:text-slate-400">
              Name (nur Buchstaben und Ziffern)
            </label>
            <input
              id="newFieldName"
              name="newFieldName"
              defaultValue={props.newField?.name}
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor="newFieldLabel" className="text-xs text-slate-500 dark:text-slate-400">
              Label
            </label>
            <input
              id="newFieldLabel"
              name="newFieldLabel"
              defaultValue={props.newField?.label}
              className={inputClass}
            />
          </div>
          <div>
            <label
              htmlFor="newFieldPlaceholder"
              className="text-xs text-slate-500 dark:text-slate-400"
            >
              Platzhalter (optional)
            </label>
            <input
              id="newFieldPlaceholder"
              name="newFieldPlaceholder"
              defaultValue={props.newField?.placeholder}
              className={inputClass}
            />
          </div>
          <button
            type="submit"
            name="intent"
            value="add-field"
            className={buttonClass("secondary", "sm")}
          >
            Feld hinzufügen
          </button>
        </div>
        <FieldErrors errors={fieldErrors?.newField ?? fieldErrors?.preparationFields} />
      </Section>

      <Section
        name="appointments"
        title="Terminbuchung"
        description="Welche Terminart Besucher nach dem Absenden buchen können."
      >
        <div className="grid gap-4 sm:grid-cols-3">
          <div>
            <label htmlFor="appointmentEventType" className={label}>
              Terminart
            </label>
            <select
              id="appointmentEventType"
              name="appointmentEventType"
              defaultValue={config.appointmentEventType ?? ""}
              className={inputClass}
            >
              <option value="">Keine (Buchung deaktiviert)</option>
              {eventTypes.map((e) => (
                <option key={e.key} value={e.key}>
                  {e.title} ({e.lengthInMinutes} Min)
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="leadDays" className={label}>
              Mindestvorlauf (Tage)
            </label>
            <input
              id="leadDays"
              name="leadDays"
              type="number"
              min={0}
              max={365}
              defaultValue={config.bookingLeadTime.days}
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor="leadHours" className={label}>
              Zusätzliche Stunden
            </label>
            <input
              id="leadHours"
              name="leadHours"
              type="number"
              min={0}
              max={24}
              defaultValue={config.bookingLeadTime.hours}
              className={inputClass}
            />
          </div>
        </div>
        <input
          type="hidden"
          name="eventTypeTitle"
          value={config.appointmentEventTypeDetails.title}
        />
        <div className="flex flex-wrap gap-2">
          <BookingDemoButton />
          <Link to="/admin/appointments" className={buttonClass("ghost", "sm")}>
            Zu den Terminen
          </Link>
        </div>
      </Section>

      <PrivacySettings config={config} fieldErrors={fieldErrors} />

      <div className="sticky bottom-0 flex justify-end border-t border-slate-200 bg-slate-50/90 py-3 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
        <Button type="submit" name="intent" value="save" disabled={saving}>
          {saving ? "Speichert …" : "Konfiguration speichern"}
        </Button>
      </div>
    </Form>
  );
}
