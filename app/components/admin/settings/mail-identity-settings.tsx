import { FieldErrors, inputClass } from "~/components/ui/field";
import { useHydrated } from "~/components/ui/use-hydrated";
import {
  EMPTY_MAIL_IDENTITY,
  fieldApplies,
  IDENTITY_FIELDS,
  type IdentityField,
  identityFieldLabel,
  LEGAL_FORM_LABELS,
  LEGAL_FORM_SHORT,
  LEGAL_FORMS,
  type LegalForm,
  type MailIdentity,
  missingIdentityFields,
  OPTIONAL_FIELDS,
  REQUIRED_FIELDS,
} from "~/lib/mail-identity";
import { mailSignature } from "~/lib/mail-signature";
import {
  initialText,
  label as labelClass,
  Section,
  SettingSelect,
  type SettingsField,
  type SettingsFields,
  useFieldErrors,
} from "./section";

const hint = "mt-1 text-xs text-slate-500 dark:text-slate-400";

/** The groups of the card, in order; each field once. */
const GROUPS: { title: string; fields: IdentityField[] }[] = [
  { title: "Anschrift", fields: ["street", "postalCode", "city"] },
  { title: "Registerangaben", fields: ["seat", "registerCourt", "registerNumber"] },
  {
    title: "Geschäftsführung, Vorstand und Aufsichtsrat",
    fields: ["managingDirectors", "boardMembers", "boardChair", "supervisoryBoardChair"],
  },
  {
    title: "Persönlich haftende Gesellschafterin (Komplementärin)",
    fields: [
      "generalPartner",
      "generalPartnerSeat",
      "generalPartnerRegisterCourt",
      "generalPartnerRegisterNumber",
      "generalPartnerDirectors",
    ],
  },
  { title: "Kontakt", fields: ["vatId", "phone", "email"] },
  { title: "Grußzeilen", fields: ["signOffVisitor", "signOffAdmin"] },
];

const PLACEHOLDERS: Partial<Record<IdentityField, string>> = {
  street: "Musterstraße 1",
  postalCode: "80331",
  city: "München",
  seat: "München",
  registerCourt: "Amtsgericht München",
  registerNumber: "HRB 123456",
  managingDirectors: "Erika Muster, Max Beispiel",
  boardMembers: "Erika Muster, Max Beispiel",
  generalPartner: "Muster Verwaltungs GmbH",
  generalPartnerRegisterNumber: "HRB 654321",
  vatId: "DE123456789",
  phone: "+49 89 123456",
  email: "kontakt@ihre-agentur.de",
};

const short = (forms: LegalForm[]) => forms.map((f) => LEGAL_FORM_SHORT[f]).join(", ");

/** Without JavaScript every field is shown: its hint says for which legal forms it is needed. */
function whereNeeded(field: IdentityField): string {
  if (field === "signOffVisitor")
    return "Steht am Ende jeder E-Mail an Besucher (Anrede „du“), z. B. „Viele Grüße“.";
  if (field === "signOffAdmin")
    return "Steht am Ende jeder E-Mail an Admins und Empfänger von Benachrichtigungen (Anrede „Sie“).";
  const required = LEGAL_FORMS.filter((f) => REQUIRED_FIELDS[f].includes(field));
  const optional = LEGAL_FORMS.filter((f) => OPTIONAL_FIELDS[f].includes(field));
  if (required.length === LEGAL_FORMS.length) return "Pflichtangabe.";
  const parts = [
    required.length ? `Pflicht bei: ${short(required)}.` : "Freiwillig.",
    optional.length ? `Falls vorhanden bei: ${short(optional)}.` : null,
  ];
  return parts.filter(Boolean).join(" ");
}

/** The identity as the form holds it now (with JS: as typed; without: as stored). */
function currentIdentity(fieldset: Record<string, SettingsField>): MailIdentity {
  const text = (meta: SettingsField) => {
    const value = (meta.value ?? initialText(meta)) as unknown;
    return typeof value === "string" && value.trim() ? value.trim() : null;
  };
  const identity: MailIdentity = { ...EMPTY_MAIL_IDENTITY };
  const form = text(fieldset.legalForm as SettingsField);
  identity.legalForm = LEGAL_FORMS.includes(form as LegalForm) ? (form as LegalForm) : null;
  for (const field of IDENTITY_FIELDS) identity[field] = text(fieldset[field] as SettingsField);
  return identity;
}

/**
 * "Absender und Pflichtangaben" (ADR 325): the Firma, the legal form (which decides the required
 * fields), the address, optional VAT ID, phone and e-mail, and the two sign-off lines. With
 * JavaScript the card shows only the chosen form's fields (the others stay in the form, hidden,
 * so nothing typed is lost) and the signature as it will look; without, every field with a hint
 * naming the forms that need it.
 */
export function MailIdentitySettings({
  fields,
  brandName,
}: {
  fields: SettingsFields;
  /** The brand's name when one is set (the signature's name line), else null. */
  brandName: string | null;
}) {
  const hydrated = useHydrated();
  const set = fields.mailIdentity.getFieldset() as unknown as Record<string, SettingsField>;
  const identity = currentIdentity(set);
  const form = identity.legalForm;
  const missing = missingIdentityFields(identity);
  const preview = mailSignature(
    identity,
    { name: brandName ?? "Anfrage-Portal", isSet: brandName !== null },
    "admin",
  );
  const shown = (field: IdentityField) => !hydrated || fieldApplies(field, form);
  const required = (field: IdentityField) =>
    hydrated && form !== null && REQUIRED_FIELDS[form].includes(field);
  const input = (field: IdentityField) => (
    <IdentityInput
      key={field}
      field={field}
      meta={set[field] as SettingsField}
      label={identityFieldLabel(field, hydrated ? form : null)}
      hidden={!shown(field)}
      required={required(field)}
      hint={hydrated ? null : whereNeeded(field)}
    />
  );

  return (
    <Section
      name="mailIdentity"
      title="Absender und Pflichtangaben"
      description="Diese Angaben stehen unter jeder E-Mail des Portals – an Besucher und an Admins."
    >
      <p className="text-sm">
        Geschäftliche E-Mails müssen in Deutschland die Pflichtangaben Ihrer Rechtsform tragen (§
        35a GmbHG, § 80 AktG, § 37a HGB, § 125 HGB, § 7 Abs. 5 PartGG). Die Rechtsform entscheidet,
        welche Felder nötig sind.
      </p>
      <div
        id="mailIdentity-status"
        className={`rounded-lg border px-4 py-3 text-sm ${
          missing.length
            ? "border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-200"
            : "border-green-200 bg-green-50 text-green-800 dark:border-green-900 dark:bg-green-950 dark:text-green-200"
        }`}
      >
        {missing.length
          ? `Für den Go-live fehlt noch: ${missing.join(", ")}.`
          : `Vollständig: Jede E-Mail trägt die Pflichtangaben (${LEGAL_FORM_LABELS[form as LegalForm]}).`}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {input("companyName")}
        <SettingSelect
          meta={set.legalForm as SettingsField}
          id="mailIdentity-legalForm"
          label="Rechtsform"
        >
          <option value="">Bitte wählen …</option>
          {LEGAL_FORMS.map((f) => (
            <option key={f} value={f}>
              {LEGAL_FORM_LABELS[f]}
            </option>
          ))}
        </SettingSelect>
      </div>
      {GROUPS.map((group) => (
        <fieldset
          key={group.title}
          hidden={!group.fields.some(shown)}
          className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-800"
        >
          <legend className="text-sm font-semibold">{group.title}</legend>
          <div className="grid gap-4 sm:grid-cols-2">{group.fields.map(input)}</div>
        </fieldset>
      ))}
      <figure className="space-y-1 border-t border-slate-200 pt-4 dark:border-slate-800">
        <figcaption className="text-sm font-semibold">
          So endet jede E-Mail an Admins{hydrated ? "" : " (gespeicherter Stand)"}
        </figcaption>
        <pre
          className="overflow-x-auto whitespace-pre-wrap rounded-lg bg-slate-50 p-3 font-sans text-sm text-slate-700 dark:bg-slate-800/60 dark:text-slate-200"
          data-testid="mail-identity-preview"
        >
          {[
            preview.signOff,
            preview.name,
            ...(preview.legal.length ? ["", "-- ", ...preview.legal] : []),
          ].join("\n")}
        </pre>
      </figure>
    </Section>
  );
}

/** One field of the card: its label, the hint (without JS), its errors, all linked to the input. */
function IdentityInput({
  field,
  meta,
  label,
  hidden,
  required,
  hint: hintText,
}: {
  field: IdentityField;
  meta: SettingsField;
  label: string;
  hidden: boolean;
  required: boolean;
  hint: string | null;
}) {
  const { errors, autoFocus } = useFieldErrors(meta);
  const id = `mailIdentity-${field}`;
  const described = [hintText ? `${id}-hint` : null, errors?.length ? `${id}-error` : null]
    .filter(Boolean)
    .join(" ");
  return (
    <div hidden={hidden}>
      <label htmlFor={id} className={labelClass}>
        {label}
        {required ? <span className="font-normal"> (Pflicht)</span> : null}
      </label>
      <input
        key={meta.key}
        id={id}
        name={meta.name}
        type={field === "email" ? "email" : field === "phone" ? "tel" : "text"}
        defaultValue={initialText(meta)}
        placeholder={PLACEHOLDERS[field]}
        autoComplete="off"
        className={inputClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={described || undefined}
        autoFocus={autoFocus}
      />
      {hintText ? (
        <p id={`${id}-hint`} className={hint}>
          {hintText}
        </p>
      ) : null}
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}
