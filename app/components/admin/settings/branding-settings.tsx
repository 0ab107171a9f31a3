import { type FormEvent, useContext, useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { FieldErrors, inputClass } from "~/components/ui/field";
import { parseHex } from "~/lib/brand-color";
import { type BrandingDefaults, type BrandingTextKey, brandingDefaults } from "~/lib/branding";
import { FaqSettings } from "./faq-settings";
import type { SettingsForm } from "./list-controls";
import {
  initialText,
  Section,
  SettingInput,
  SettingsErrors,
  type SettingsField,
  type SettingsFields,
  useFieldErrors,
} from "./section";

const hint = "mt-1 text-xs text-slate-500 dark:text-slate-400";

/**
 * One text of the brand with "Standardtext" (Conform's update intent: with JS in place, without JS
 * the server shows the form again with the default filled in; saving stores it as the default).
 */
function BrandText({
  form,
  meta,
  textKey,
  title,
  rows,
  note,
  defaults = brandingDefaults,
}: {
  /** Today's texts for the configured promises (ADR 346): what "Zurücksetzen" puts in. */
  defaults?: BrandingDefaults;
  form: SettingsForm;
  meta: SettingsField;
  textKey: BrandingTextKey;
  title: string;
  /** A textarea with this many rows (else one line). */
  rows?: number;
  note?: string;
}) {
  const { errors, autoFocus } = useFieldErrors(meta);
  // Without JS the server answers "Zurücksetzen" with the whole page: its button takes the focus
  // again (and so the text is in view, not the top of the page); with JS it keeps it anyway.
  const { intent } = useContext(SettingsErrors);
  const wasReset = intent?.type === "update" && intent.payload.name === meta.name;
  const id = `branding-${textKey}`;
  const described = [note ? `${id}-hint` : null, errors?.length ? `${id}-error` : null]
    .filter(Boolean)
    .join(" ");
  const shared = {
    id,
    name: meta.name,
    defaultValue: initialText(meta),
    className: inputClass,
    "aria-invalid": errors?.length ? true : undefined,
    "aria-describedby": described || undefined,
    autoFocus,
  } as const;
  return (
    <div>
      <div className="mb-1 flex flex-wrap items-end justify-between gap-2">
        <label htmlFor={id} className="block text-sm font-medium">
          {title}
        </label>
        <button
          className={buttonClass("ghost", "sm")}
          autoFocus={wasReset}
          {...form.update.getButtonProps({ name: meta.name, value: defaults[textKey] })}
        >
          Zurücksetzen<span className="sr-only">{` (${title}: Standardtext einsetzen)`}</span>
        </button>
      </div>
      {rows ? (
        <textarea key={meta.key} rows={rows} {...shared} />
      ) : (
        <input key={meta.key} type="text" {...shared} />
      )}
      {note ? (
        <p id={`${id}-hint`} className={hint}>
          {note}
        </p>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
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
