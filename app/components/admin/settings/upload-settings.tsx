import { CheckboxGroup, plainOptions } from "~/components/ui/checkbox-group";
import { type Configuration, DOCUMENT_TYPES, IMAGE_TYPES } from "~/lib/configuration";
import { NumberSettings, Section } from "./section";

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
        <NumberSettings
          settings={[
            ["maxFilesPerRequest", "Max. Dateien pro Anfrage", uploads.maxFilesPerRequest],
            ["maxFileSizeMB", "Max. Größe pro Datei (MB)", uploads.maxFileSizeMB],
            ["maxTotalSizeMB", "Max. Gesamtgröße (MB)", uploads.maxTotalSizeMB],
          ]}
        />
      </div>
      <CheckboxGroup
        legend="Erlaubte Bildtypen"
        name="imageType"
        options={plainOptions(IMAGE_TYPES, uploads.allowedImageTypes)}
      />
      <CheckboxGroup
        legend="Erlaubte Dokumenttypen"
        name="documentType"
        options={plainOptions(DOCUMENT_TYPES, uploads.allowedDocumentTypes)}
      />
    </Section>
  );
}
