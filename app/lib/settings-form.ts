import { z } from "zod";
import {
  ACCESSIBILITY_CORE_KEYS,
  ACCESSIBILITY_OPTIONAL_KEYS,
  AccessibilityFormSchema,
  accessibilityFormDefaults,
  accessibilityFromForm,
  FEEDBACK_DAYS_RANGE,
} from "./accessibility";
import { BLOCKLIST_MAX, BlocklistEntrySchema } from "./blocklist";
import { BRANDING_TEXT_KEYS } from "./branding";
import { BrandingFormSchema, brandingFormDefaults, brandingFromForm } from "./branding-form";
import {
  type Configuration,
  type ConfigurationSchema,
  PreparationFieldSchema,
  RETENTION_ACTIONS,
} from "./configuration";
import { EmbedOriginListSchema } from "./embed";
import { SCHEDULING_LIST_MESSAGES, SchedulingFormSchema } from "./scheduling-form";
import { BusyFeedSchema, FEED_URL_INVALID, VideoUrlSchema } from "./team-calendar";

export const EMAIL_REQUIRED = "Bitte geben Sie eine E-Mail-Adresse ein!";
export const EMAIL_INVALID = "Bitte geben Sie eine gültige E-Mail-Adresse ein!";
export const EMAIL_DUPLICATE = "Diese E-Mail-Adresse ist bereits hinzugefügt!";
export const FIELD_REQUIRED = "Bitte füllen Sie mindestens Name und Label aus!";
export const FIELD_DUPLICATE = "Ein Feld mit diesem Namen gibt es bereits.";
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
  "teamCalendar",
  "privacy",
  "spam",
  "branding",
  "embed",
  "accessibility",
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** The sections whose marker the posted settings form lacks (empty: complete). */
export function missingSections(form: FormData): SettingsSection[] {
  const posted = new Set(form.getAll("section").map(String));
  return SETTINGS_SECTIONS.filter((s) => !posted.has(s));
}

/**
 * The number fields of the settings form: posted name -> allowed whole-number range. The inputs
 * carry it as min/max (the browser checks it), and `SettingsFormSchema` refuses a value outside
 * it with `numberRangeMessage` at the field (the API's `ConfigurationSchema` clamps to the same ranges).
 */
export const SETTINGS_NUMBER_RANGES = {
  "uploadSettings.maxFilesPerRequest": [1, 10],
  "uploadSettings.maxFileSizeMB": [1, 25],
  "uploadSettings.maxTotalSizeMB": [10, 100],
  "bookingLeadTime.days": [0, 365],
  "bookingLeadTime.hours": [0, 24],
  "retention.requestMonths": [1, 120],
  "retention.outboxDays": [1, 365],
  "retention.auditDays": [30, 3650],
  "scheduling.slotStepMinutes": [0, 240],
  "scheduling.bufferBeforeMinutes": [0, 240],
  "scheduling.bufferAfterMinutes": [0, 240],
  "scheduling.maxPerDay": [0, 50],
  "scheduling.horizonDays": [0, 730],
  "spam.quarantineDays": [1, 365],
  "ai.dailyLimit": [0, 100_000],
  "transcription.dailyLimit": [0, 100_000],
  "accessibility.feedbackDays": FEEDBACK_DAYS_RANGE,
} as const satisfies Record<string, readonly [number, number]>;
export type SettingsNumberField = keyof typeof SETTINGS_NUMBER_RANGES;

export const isSettingsNumberField = (name: string): name is SettingsNumberField =>
  Object.hasOwn(SETTINGS_NUMBER_RANGES, name);

/** The German message of a number outside its range (also the browser's bubble, with JS). */
export function numberRangeMessage(field: SettingsNumberField): string {
  const [min, max] = SETTINGS_NUMBER_RANGES[field];
  return `Bitte geben Sie eine ganze Zahl von ${min} bis ${max} ein.`;
}

/** A whole number inside the field's range; empty, fractional or outside: the range message. */
const rangeInt = (field: SettingsNumberField) => {
  const [min, max] = SETTINGS_NUMBER_RANGES[field];
  const error = numberRangeMessage(field);
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

const SIMPLE_EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** One external address: the spec's three messages, each at the address it is about. */
const ExternalEmailsSchema = z
  .array(
    z
      .string({ error: EMAIL_REQUIRED })
      .trim()
      .min(1, { error: EMAIL_REQUIRED, abort: true })
      .regex(SIMPLE_EMAIL, EMAIL_INVALID),
  )
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((email, index) => {
      const key = email.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: [index], message: EMAIL_DUPLICATE });
      seen.add(key);
    });
  });

export const BLOCKLIST_DUPLICATE = "Dieser Eintrag steht bereits in der Liste.";

/** The spam blocklist: one entry a row, each refused at its row (lib/blocklist.ts). */
const BlocklistSchema = z
  .array(BlocklistEntrySchema)
  .max(BLOCKLIST_MAX, { error: `Die Liste darf höchstens ${BLOCKLIST_MAX} Einträge haben.` })
  .superRefine((list, ctx) => {
    list.forEach((entry, index) => {
      if (list.indexOf(entry) < index)
        ctx.addIssue({ code: "custom", path: [index], message: BLOCKLIST_DUPLICATE });
    });
  });

/**
 * The preparation fields: a row added in the form has no id yet and gets the highest id + 1;
 * the name keeps only letters and digits and is unique (case-insensitive).
 */
const PreparationFieldsSchema = z
  .array(PreparationFieldSchema.extend({ id: z.number().int().min(1).optional() }))
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((field, index) => {
      const key = field.name.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: "custom", path: [index, "name"], message: FIELD_DUPLICATE });
      seen.add(key);
    });
  })
  .transform((fields) => {
    let highest = fields.reduce((max, f) => Math.max(max, f.id ?? 0), 0);
    return fields.map(({ id, ...field }) => ({ id: id ?? ++highest, ...field }));
  });

/**
 * The team calendar's feeds: a row added in the form has no id yet and gets a new one; a stored
 * row shows its URL masked (a masked URL sent back keeps the stored one, configuration.server).
 */
const BusyFeedRowsSchema = z
  .array(
    z.object({
      id: BusyFeedSchema.shape.id.optional(),
      url: z.string({ error: FEED_URL_INVALID }).trim().min(1, FEED_URL_INVALID),
    }),
  )
  .transform((rows) =>
    rows.map((row) => ({
      id: row.id ?? `cal-${Math.random().toString(36).slice(2, 10)}`,
      url: row.url,
    })),
  );

/**
 * The settings page's form, on the client (Conform) and the server (`parseWithZod`): its names are
 * the configuration's paths (`uploadSettings.maxFileSizeMB`, `preparationFields[0].label`), its keys
 * in the order of the page (the first refused field is focused). Lists change by Conform's
 * insert/remove/reorder intents. A new setting is one entry here, one input in its card
 * (components/admin/settings/) and its place in `ConfigurationSchema`.
 */
export const SettingsFormSchema = z.object({
  systemPrompt: z.string().max(20_000).default(""),
  emailNotifications: z.object({
    enabled: z.boolean().default(false),
    bookingNotice: z.boolean().default(false),
    /** The ids of the admins who are notified (checkboxes). */
    adminIds: z.array(z.number().int()).default([]),
    externalEmails: ExternalEmailsSchema.default([]),
  }),
  infoBanner: z.object({
    enabled: z.boolean().default(false),
    text: z.string().max(2000).default(""),
  }),
  uploadSettings: z.object({
    maxFilesPerRequest: rangeInt("uploadSettings.maxFilesPerRequest"),
    maxFileSizeMB: rangeInt("uploadSettings.maxFileSizeMB"),
    maxTotalSizeMB: rangeInt("uploadSettings.maxTotalSizeMB"),
    allowedImageTypes: z.array(z.string()).default([]),
    allowedDocumentTypes: z.array(z.string()).default([]),
  }),
  preparationFields: PreparationFieldsSchema.default([]),
  appointmentEventType: z
    .string()
    .max(200)
    .nullish()
    .transform((v) => v ?? null),
  appointmentEventTypeDetails: z.object({ title: z.string().default("Termin buchen") }),
  bookingLeadTime: z.object({
    days: rangeInt("bookingLeadTime.days"),
    hours: rangeInt("bookingLeadTime.hours"),
  }),
  /** Kalender des Teams (issue 28): the fixed video room and the busy feeds (URLs masked when shown). */
  teamCalendar: z
    .object({
      videoUrl: z
        .string()
        .optional()
        .transform((v) => v?.trim() || null)
        .pipe(VideoUrlSchema.nullable()),
      busyFeeds: BusyFeedRowsSchema.default([]),
    })
    .default({ videoUrl: null, busyFeeds: [] }),
  scheduling: SchedulingFormSchema({
    slotStepMinutes: rangeInt("scheduling.slotStepMinutes"),
    bufferBeforeMinutes: rangeInt("scheduling.bufferBeforeMinutes"),
    bufferAfterMinutes: rangeInt("scheduling.bufferAfterMinutes"),
    maxPerDay: rangeInt("scheduling.maxPerDay"),
    horizonDays: rangeInt("scheduling.horizonDays"),
  }).optional(),
  retention: z.object({
    requestMonths: rangeInt("retention.requestMonths"),
    requestAction: z.enum(RETENTION_ACTIONS).catch("delete"),
    outboxDays: rangeInt("retention.outboxDays"),
    auditDays: rangeInt("retention.auditDays"),
  }),
  privacyNote: z.string().max(2000).default(""),
  spam: z.object({
    blocklist: BlocklistSchema.default([]),
    quarantineDays: rangeInt("spam.quarantineDays"),
  }),
  ai: z.object({ dailyLimit: rangeInt("ai.dailyLimit") }),
  // Optional: a post without it (a hand-made one) keeps the stored budget.
  transcription: z.object({ dailyLimit: rangeInt("transcription.dailyLimit") }).optional(),
  branding: BrandingFormSchema,
  embed: z
    .object({ allowedOrigins: EmbedOriginListSchema.default([]) })
    .default({ allowedOrigins: [] }),
  /** Barrierefreiheit (ADR 340); absent in a hand-made post: the stored statement stays. */
  accessibility: AccessibilityFormSchema.extend({
    feedbackDays: rangeInt("accessibility.feedbackDays"),
  }).optional(),
});
export type SettingsFormInput = z.input<typeof SettingsFormSchema>;
export type SettingsFormValue = z.output<typeof SettingsFormSchema>;

type Admin = { id: number; username: string; email: string };

/** What the form shows for a configuration (Conform's `defaultValue`). */
export function settingsFormDefaults(config: Configuration): SettingsFormInput {
  const {
    webhooks: _own,
    emailNotifications,
    branding,
    scheduling,
    accessibility,
    ...rest
  } = config;
  const { adminEmails, ...notifications } = emailNotifications;
  const { hoursReviewed: _reviewed, ...week } = scheduling;
  return {
    ...rest,
    scheduling: { ...week, holidayState: week.holidayState ?? "" },
    emailNotifications: { ...notifications, adminIds: adminEmails.map((a) => a.id) },
    branding: brandingFormDefaults(branding),
    accessibility: accessibilityFormDefaults(accessibility),
    teamCalendar: { ...rest.teamCalendar, videoUrl: rest.teamCalendar.videoUrl ?? "" },
  };
}

/**
 * The saved form as the configuration document to store (webhooks have their own forms and are
 * added by the caller): admins are looked up by id, unknown ids dropped.
 */
export function configurationFromSettings(
  value: SettingsFormValue,
  admins: Admin[],
): Omit<z.input<typeof ConfigurationSchema>, "webhooks"> {
  const { adminIds, ...notifications } = value.emailNotifications;
  const ids = new Set(adminIds);
  const { scheduling, transcription, accessibility, ...rest } = value;
  return {
    ...rest,
    branding: brandingFromForm(value.branding),
    // A post without the week's fields (a hand-made one) keeps the stored week.
    ...(scheduling ? { scheduling } : {}),
    ...(transcription ? { transcription } : {}),
    ...(accessibility ? { accessibility: accessibilityFromForm(accessibility) } : {}),
    emailNotifications: {
      ...notifications,
      adminEmails: admins
        .filter((a) => ids.has(a.id))
        .map(({ id, username, email }) => ({ id, username, email })),
    },
  };
}

export const SETTINGS_NOT_SAVED =
  "Die Konfiguration wurde nicht gespeichert. Bitte prüfen Sie die markierten Felder.";
export const UNSAVED_CHANGES_TITLE = "Ungespeicherte Änderungen";
export const UNSAVED_CHANGES_MESSAGE =
  "Sie haben Änderungen an der Konfiguration noch nicht gespeichert. Möchten Sie die Seite verlassen und die Änderungen verwerfen?";

/** The message of a list edit answered by the server (without JS): it is not saved yet. */
export const LIST_EDIT_MESSAGES: Record<string, Partial<Record<string, string>>> = {
  ...SCHEDULING_LIST_MESSAGES,
  "emailNotifications.externalEmails": {
    insert: "Adresse hinzugefügt – zum Übernehmen bitte speichern.",
    remove: "Adresse entfernt – zum Übernehmen bitte speichern.",
  },
  preparationFields: {
    insert: "Feld hinzugefügt – zum Übernehmen bitte speichern.",
    remove: "Feld entfernt – zum Übernehmen bitte speichern.",
    reorder: "Feld verschoben – zum Übernehmen bitte speichern.",
  },
  "spam.blocklist": {
    insert: "Eintrag hinzugefügt – zum Übernehmen bitte speichern.",
    remove: "Eintrag entfernt – zum Übernehmen bitte speichern.",
  },
  "embed.allowedOrigins": {
    insert: "Website hinzugefügt – zum Übernehmen bitte speichern.",
    remove: "Website entfernt – zum Übernehmen bitte speichern.",
  },
  "branding.faq": {
    insert: "Frage hinzugefügt – zum Übernehmen bitte speichern.",
    remove: "Frage entfernt – zum Übernehmen bitte speichern.",
    reorder: "Frage verschoben – zum Übernehmen bitte speichern.",
  },
  ...Object.fromEntries(
    ACCESSIBILITY_CORE_KEYS.map((key) => [
      `accessibility.${key}`,
      { update: "Standardtext eingesetzt – zum Übernehmen bitte speichern." },
    ]),
  ),
  ...Object.fromEntries(
    ACCESSIBILITY_OPTIONAL_KEYS.map((key) => [
      `accessibility.${key}`,
      { update: "Vorschlag eingesetzt – zum Übernehmen bitte speichern." },
    ]),
  ),
  ...Object.fromEntries(
    BRANDING_TEXT_KEYS.map((key) => [
      `branding.${key}`,
      { update: "Standardtext eingesetzt – zum Übernehmen bitte speichern." },
    ]),
  ),
};
