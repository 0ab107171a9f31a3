import type { Configuration, PreparationField } from "./configuration";

export const EMAIL_REQUIRED = "Bitte geben Sie eine E-Mail-Adresse ein!";
export const EMAIL_INVALID = "Bitte geben Sie eine gültige E-Mail-Adresse ein!";
export const EMAIL_DUPLICATE = "Diese E-Mail-Adresse ist bereits hinzugefügt!";
export const FIELD_REQUIRED = "Bitte füllen Sie mindestens Name und Label aus!";
export const DELETE_FIELD_CONFIRM = "Möchten Sie dieses Feld wirklich löschen?";

export const SECTIONS_MISSING =
  "Das Formular war unvollständig – es wurde nichts gespeichert. Bitte laden Sie die Seite neu und versuchen Sie es erneut.";

/**
 * Every card of the settings form posts its marker (`section=<name>`), hidden parts included;
 * a save whose post lacks one is refused, so a truncated or empty post never wipes settings.
 */
export const SETTINGS_SECTIONS = [
  "systemPrompt",
  "notifications",
  "banner",
  "uploads",
  "preparationFields",
  "appointments",
  "privacy",
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** The sections whose marker the posted settings form lacks (empty: complete). */
export function missingSections(form: FormData): SettingsSection[] {
  const posted = new Set(form.getAll("section").map(String));
  return SETTINGS_SECTIONS.filter((s) => !posted.has(s));
}

const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Adds an external notification address (spec §5 rules). */
export function addExternalEmail(
  list: string[],
  raw: string,
): { ok: true; list: string[] } | { ok: false; error: string } {
  const email = raw.trim();
  if (!email) return { ok: false, error: EMAIL_REQUIRED };
  if (!SIMPLE_EMAIL.test(email)) return { ok: false, error: EMAIL_INVALID };
  if (list.some((e) => e.toLowerCase() === email.toLowerCase()))
    return { ok: false, error: EMAIL_DUPLICATE };
  return { ok: true, list: [...list, email] };
}

/** Adds a preparation field: name keeps only letters and digits, id = highest + 1. */
export function addPreparationField(
  fields: PreparationField[],
  input: { name: string; label: string; placeholder?: string },
): { ok: true; fields: PreparationField[] } | { ok: false; error: string } {
  const name = input.name.replace(/[^\p{L}\p{N}]/gu, "");
  const label = input.label.trim();
  if (!name || !label) return { ok: false, error: FIELD_REQUIRED };
  if (fields.some((f) => f.name.toLowerCase() === name.toLowerCase())) {
    return { ok: false, error: "Ein Feld mit diesem Namen gibt es bereits." };
  }
  const id = fields.reduce((max, f) => Math.max(max, f.id), 0) + 1;
  return {
    ok: true,
    fields: [...fields, { id, name, label, placeholder: (input.placeholder ?? "").trim() }],
  };
}

/** The settings form (flat names) as a configuration draft, before schema validation and clamping. */
export function draftFromForm(
  form: FormData,
  admins: { id: number; username: string; email: string }[],
) {
  const all = (name: string) => form.getAll(name).map(String);
  const ids = all("fieldId");
  const names = all("fieldName");
  const labels = all("fieldLabel");
  const placeholders = all("fieldPlaceholder");
  const adminIds = new Set(all("notifyAdmin").map(Number));
  return {
    systemPrompt: String(form.get("systemPrompt") ?? ""),
    emailNotifications: {
      enabled: form.get("notificationsEnabled") === "on",
      bookingNotice: form.get("bookingNotice") === "on",
      adminEmails: admins
        .filter((a) => adminIds.has(a.id))
        .map((a) => ({ id: a.id, username: a.username, email: a.email })),
      externalEmails: all("externalEmail"),
    },
    infoBanner: {
      enabled: form.get("bannerEnabled") === "on",
      text: String(form.get("bannerText") ?? ""),
    },
    uploadSettings: {
      maxFilesPerRequest: String(form.get("maxFilesPerRequest") ?? ""),
      maxFileSizeMB: String(form.get("maxFileSizeMB") ?? ""),
      maxTotalSizeMB: String(form.get("maxTotalSizeMB") ?? ""),
      allowedImageTypes: all("imageType"),
      allowedDocumentTypes: all("documentType"),
    },
    preparationFields: ids.map((id, i) => ({
      id: Number(id),
      name: names[i] ?? "",
      label: labels[i] ?? "",
      placeholder: placeholders[i] ?? "",
    })),
    appointmentEventType: String(form.get("appointmentEventType") ?? "") || null,
    appointmentEventTypeDetails: { title: String(form.get("eventTypeTitle") ?? "Termin buchen") },
    bookingLeadTime: {
      days: String(form.get("leadDays") ?? ""),
      hours: String(form.get("leadHours") ?? ""),
    },
    retention: {
      requestMonths: String(form.get("retentionMonths") ?? ""),
      requestAction: String(form.get("retentionAction") ?? ""),
      outboxDays: String(form.get("outboxDays") ?? ""),
      auditDays: String(form.get("auditDays") ?? ""),
    },
    privacyNote: String(form.get("privacyNote") ?? ""),
  } as unknown as Configuration;
}

/**
 * The number fields of the settings form: posted name -> allowed whole-number range. The inputs
 * carry it as min/max (the browser checks it), and a save with a value outside it is refused with
 * `numberRangeMessage` at the field (the API's `ConfigurationSchema` clamps to the same ranges).
 */
export const SETTINGS_NUMBER_RANGES = {
  maxFilesPerRequest: [1, 10],
  maxFileSizeMB: [1, 25],
  maxTotalSizeMB: [10, 100],
  leadDays: [0, 365],
  leadHours: [0, 24],
  retentionMonths: [1, 120],
  outboxDays: [1, 365],
  auditDays: [30, 3650],
} as const satisfies Record<string, readonly [number, number]>;
export type SettingsNumberField = keyof typeof SETTINGS_NUMBER_RANGES;

export const isSettingsNumberField = (name: string): name is SettingsNumberField =>
  Object.hasOwn(SETTINGS_NUMBER_RANGES, name);

/** The German message of a number outside its range (also the browser's bubble, with JS). */
export function numberRangeMessage(field: SettingsNumberField): string {
  const [min, max] = SETTINGS_NUMBER_RANGES[field];
  return `Bitte geben Sie eine ganze Zahl von ${min} bis ${max} ein.`;
}

/** The message of one posted number, or null when it is a whole number inside its range. */
export function settingsNumberError(field: SettingsNumberField, raw: string): string | null {
  const [min, max] = SETTINGS_NUMBER_RANGES[field];
  const value = raw.trim() === "" ? Number.NaN : Number(raw);
  return Number.isInteger(value) && value >= min && value <= max ? null : numberRangeMessage(field);
}

/**
 * The refused number fields of a posted settings form, in the form's order (empty: all fine). A
 * field the post leaves out keeps its default like before (hand-made posts); one sent empty is refused.
 */
export function settingsNumberErrors(form: FormData): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const field of Object.keys(SETTINGS_NUMBER_RANGES) as SettingsNumberField[]) {
    if (!form.has(field)) continue;
    const message = settingsNumberError(field, String(form.get(field)));
    if (message) errors[field] = [message];
  }
  return errors;
}

export const SETTINGS_NOT_SAVED =
  "Die Konfiguration wurde nicht gespeichert. Bitte prüfen Sie die markierten Felder.";
export const UNSAVED_CHANGES_TITLE = "Ungespeicherte Änderungen";
export const UNSAVED_CHANGES_MESSAGE =
  "Sie haben Änderungen an der Konfiguration noch nicht gespeichert. Möchten Sie die Seite verlassen und die Änderungen verwerfen?";
