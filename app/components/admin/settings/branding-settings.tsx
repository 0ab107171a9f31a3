import { type FormEvent, useState } from "react";
import { parseHex } from "~/lib/brand-color";
import { type BrandingDefaults, type BrandingTextKey, brandingDefaults } from "~/lib/branding";
import { TextWithDefault } from "./default-text";
import { FaqSettings } from "./faq-settings";
import type { SettingsForm } from "./list-controls";
import {
  initialText,
  Section,
  SettingInput,
  type SettingsField,
  type SettingsFields,
} from "./section";

const hint = "mt-1 text-xs text-slate-500 dark:text-slate-400";

/** One text of the brand with "Zurücksetzen" (puts today's default back in; TextWithDefault). */
function BrandText({
  textKey,
  defaults = brandingDefaults,
  ...props
}: {
  /** Today's texts for the configured promises (ADR 346): what "Zurücksetzen" puts in. */
  defaults?: BrandingDefaults;
  form: SettingsForm;
  meta: SettingsField;
  textKey: BrandingTextKey;
  title: string;
  rows?: number;
  note?: string;
}) {
  return (
    <TextWithDefault
      {...props}
      id={`branding-${textKey}`}
      insert={{
        value: defaults[textKey],
        label: "Zurücksetzen",
        what: "Standardtext einsetzen",
      }}
    />
  );
}

/**
 * "Hauptfarbe" with a swatch of the colour beside it: the stored one without JS, the typed one
 * with JS (a text that is no colour yet shows the default indigo, as saving it empty would).
 */
function ColorField({ meta }: { meta: SettingsField }) {
  const [typed, setTyped] = useState(initialText(meta) ?? "");
  const color = parseHex(typed) ? typed.trim() : brandingDefaults.primaryColor;
  const onInput = (event: FormEvent<HTMLDivElement>) => {
    if (event.target instanceof HTMLInputElement) setTyped(event.target.value);
  };
  return (
    <div>
      <div className="flex items-start gap-2" onInput={onInput}>
        <div className="min-w-0 flex-1">
          <SettingInput
            meta={meta}
            id="branding-primaryColor"
            label="Hauptfarbe (Hex, z. B. #0b5d1e)"
            placeholder={brandingDefaults.primaryColor}
            pattern="#([0-9a-fA-F]{6}|[0-9a-fA-F]{3})"
          />
        </div>
        <span
          aria-hidden="true"
          data-testid="color-swatch"
          className="mt-7 size-9 shrink-0 rounded-md border border-slate-300 dark:border-slate-600"
          style={{ backgroundColor: color }}
        />
      </div>
      <p id="branding-primaryColor-hint" className={hint}>
        Leer: das voreingestellte Indigo. Weiße Schrift muss darauf gut lesbar bleiben (Kontrast
        mindestens 4,5:1).
      </p>
    </div>
  );
}

/**
 * "Erscheinungsbild und Inhalte" (ADRs 268, 269): the agency's name, legal links, colour and the
 * landing page's texts and questions. The logo is uploaded in its own form below the settings.
 */
export function BrandingSettings({
  form,
  fields,
  legalDefaults,
  defaults,
}: {
  form: SettingsForm;
  fields: SettingsFields;
  /** PRIVACY_URL and IMPRINT_URL: what an empty link field stands for. */
  legalDefaults?: { privacyUrl: string; imprintUrl: string };
  /** Today's texts for the configured promises. */
  defaults?: BrandingDefaults;
}) {
  const brand = fields.branding.getFieldset();
  return (
    <Section
      name="branding"
      title="Erscheinungsbild und Inhalte"
      description="Name, Farbe, Rechtstexte und die Texte der Startseite. Leere Texte zeigen den Standardtext."
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <BrandText
          defaults={defaults}
          form={form}
          meta={brand.name}
          textKey="name"
          title="Name"
          note="In Kopfzeilen, Seitentiteln, als Absendername der E-Mails und im Kalendereintrag."
        />
        <ColorField meta={brand.primaryColor} />
        <SettingInput
          meta={brand.privacyUrl}
          id="branding-privacyUrl"
          label="Datenschutzerklärung (Adresse)"
          type="url"
          placeholder={legalDefaults?.privacyUrl}
        />
        <SettingInput
          meta={brand.imprintUrl}
          id="branding-imprintUrl"
          label="Impressum (Adresse)"
          type="url"
          placeholder={legalDefaults?.imprintUrl}
        />
      </div>
      <p className={hint}>
        Leere Adressen: die Werte von PRIVACY_URL und IMPRINT_URL (Platzhalter).
      </p>
      <BrandText
        defaults={defaults}
        form={form}
        meta={brand.heroTitle}
        textKey="heroTitle"
        title="Überschrift"
      />
      <BrandText
        defaults={defaults}
        form={form}
        meta={brand.heroSubtitle}
        textKey="heroSubtitle"
        title="Unterzeile"
        rows={3}
      />
      <BrandText
        defaults={defaults}
        form={form}
        meta={brand.promise}
        textKey="promise"
        title="Versprechen über dem Formular"
      />
      <BrandText
        defaults={defaults}
        form={form}
        meta={brand.successMessage}
        textKey="successMessage"
        title="Nachricht nach dem Absenden"
        rows={2}
      />
      <BrandText
        defaults={defaults}
        form={form}
        meta={brand.footerLine}
        textKey="footerLine"
        title="Firmenzeile im Footer"
        note="{jahr} wird durch das aktuelle Jahr ersetzt, {name} durch den Namen."
      />
      <FaqSettings form={form} list={brand.faq} />
    </Section>
  );
}
