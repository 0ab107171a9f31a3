import { type Configuration, DOCUMENT_TYPES, IMAGE_TYPES } from "~/lib/configuration";
import { CheckboxGroup, Section, SettingInput } from "./section";

/** Limits and allowed types for attachments of the contact form. */
export function UploadSettings({ config }: { config: Configuration }) {
  const uploads = config.uploadSettings;
  return (
    <Section
      name="uploads"
      title="Datei-Uploads"
      description="Grenzen für Anhänge im Kontaktformular (Dateien 1–10, je 1–25 MB, gesamt 10–100 MB)."
    >
      <div className="grid gap-4 sm:grid-cols-3">
        <SettingInput
          id="maxFilesPerRequest"
          label="Max. Dateien pro Anfrage"
          type="number"
          min={1}
          max={10}
          defaultValue={uploads.maxFilesPerRequest}
        />
        <SettingInput
          id="maxFileSizeMB"
          label="Max. Größe pro Datei (MB)"
          type="number"
          min={1}
          max={25}
          defaultValue={uploads.maxFileSizeMB}
        />
        <SettingInput
          id="maxTotalSizeMB"
          label="Max. Gesamtgröße (MB)"
          type="number"
          min={10}
          max={100}
          defaultValue={uploads.maxTotalSizeMB}
        />
      </div>
      <CheckboxGroup
        legend="Erlaubte Bildtypen"
        name="imageType"
        options={IMAGE_TYPES}
        checked={uploads.allowedImageTypes}
      />
      <CheckboxGroup
        legend="Erlaubte Dokumenttypen"
        name="documentType"
        options={DOCUMENT_TYPES}
        checked={uploads.allowedDocumentTypes}
      />
    </Section>
  );
}
