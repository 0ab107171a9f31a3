import { CheckboxGroup, plainOptions } from "~/components/ui/checkbox-group";
import { DOCUMENT_TYPES, IMAGE_TYPES } from "~/lib/configuration";
import { initialList, NumberSettings, Section, type SettingsFields } from "./section";

/** Limits and allowed types for attachments of the contact form. */
export function UploadSettings({ fields }: { fields: SettingsFields }) {
  const uploads = fields.uploadSettings.getFieldset();
  return (
    <Section
      name="uploads"
      title="Datei-Uploads"
      description="Grenzen für Anhänge im Kontaktformular (Dateien 1–10, je 1–25 MB, gesamt 10–100 MB)."
    >
      <div className="grid gap-4 sm:grid-cols-3">
        <NumberSettings
          settings={[
            [uploads.maxFilesPerRequest, "maxFilesPerRequest", "Max. Dateien pro Anfrage"],
            [uploads.maxFileSizeMB, "maxFileSizeMB", "Max. Größe pro Datei (MB)"],
            [uploads.maxTotalSizeMB, "maxTotalSizeMB", "Max. Gesamtgröße (MB)"],
          ]}
        />
      </div>
      <CheckboxGroup
        legend="Erlaubte Bildtypen"
        name={uploads.allowedImageTypes.name}
        options={plainOptions(IMAGE_TYPES, initialList(uploads.allowedImageTypes))}
      />
      <CheckboxGroup
        legend="Erlaubte Dokumenttypen"
        name={uploads.allowedDocumentTypes.name}
        options={plainOptions(DOCUMENT_TYPES, initialList(uploads.allowedDocumentTypes))}
      />
    </Section>
  );
}
