import { z } from "zod";
import {
  ACCESSIBILITY_CORE_KEYS,
  ACCESSIBILITY_OPTIONAL_KEYS,
  AccessibilityFormSchema,
  accessibilityFormDefaults,
  accessibilityFromForm,
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
import {
  MailIdentityFormSchema,
  mailIdentityFormDefaults,
  mailIdentityFromForm,
} from "./mail-identity";
import { LostReasonListSchema, reasonsWhereAsked, StageListSchema } from "./pipeline";
import { DEFAULT_PROMISES, type PromiseSettings } from "./promises";
import { SCHEDULING_LIST_MESSAGES, SchedulingFormSchema } from "./scheduling-form";
import { postedNumbers, settingNumber as rangeInt } from "./setting-ranges";
import { BusyFeedSchema, DEMO_HOST_MODES, FEED_URL_INVALID, VideoUrlSchema } from "./team-calendar";

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
  "mailIdentity",
  "pipeline",
  "assignment",
  "accessibility",
] as const;
export type SettingsSection = (typeof SETTINGS_SECTIONS)[number];

/** The sections whose marker the posted settings form lacks (empty: complete). */
export function missingSections(form: FormData): SettingsSection[] {
  const posted = new Set(form.getAll("section").map(String));
  return SETTINGS_SECTIONS.filter((s) => !posted.has(s));
}

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
 * in the order of the page (the first refused field is focused). Its number fields are the paths of
 * `NUMBER_SETTINGS` (setting-ranges.ts, ADR 311): a value outside the range is refused at the field
 * (`rangeInt`), while the API clamps it to the same range. Lists change by Conform's
 * insert/remove/reorder intents. A new setting is one entry here, one input in its card
 * (components/admin/settings/) and its place in `ConfigurationSchema` (README "A new setting").
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
  /** Kalender des Teams (ADRs 266, 267): the fixed video room and the busy feeds (URLs masked when shown). */
  teamCalendar: z
    .object({
      videoUrl: z
        .string()
        .optional()
        .transform((v) => v?.trim() || null)
        .pipe(VideoUrlSchema.nullable()),
      busyFeeds: BusyFeedRowsSchema.default([]),
      demoHosts: z.enum(DEMO_HOST_MODES).catch("team").default("team"),
      leadNameInEvents: z.boolean().default(false),
    })
    .default({ videoUrl: null, busyFeeds: [], demoHosts: "team", leadNameInEvents: false }),
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
    heldBookingsPerDay: rangeInt("spam.heldBookingsPerDay"),
  }),
  // The manual budget is optional: a post without it (a hand-made one) keeps the stored one; the
  // rendered form always posts it, so an emptied field is refused like every number (ADR 311).
  ai: postedNumbers(
    z.object({
      dailyLimit: rangeInt("ai.dailyLimit"),
      manualDailyLimit: rangeInt("ai.manualDailyLimit").optional(),
    }),
  ),
  // Optional: a post without it (a hand-made one) keeps the stored budget.
  transcription: z.object({ dailyLimit: rangeInt("transcription.dailyLimit") }).optional(),
  // Optional too: a post without it keeps the stored ceiling (ADR 326).
  scriptFree: z.object({ dailyLimit: rangeInt("scriptFree.dailyLimit") }).optional(),
  branding: BrandingFormSchema,
  embed: z
    .object({ allowedOrigins: EmbedOriginListSchema.default([]) })
    .default({ allowedOrigins: [] }),
  /** Absender und Pflichtangaben (ADR 325): the signature of every mail. */
  mailIdentity: MailIdentityFormSchema,
  /**
   * Pipeline und Versprechen (ADRs 345, 346): the stages (a new row has no id yet and gets one
   * from its name), the reasons of "Verloren", the two promises. An emptied list is checked too;
   * a post without any of its fields (a hand-made one) keeps the stored pipeline.
   */
  pipeline: z
    .object({
      stages: StageListSchema.prefault([]),
      lostReasons: LostReasonListSchema.default([]),
      promises: z.object({
        contactDays: rangeInt("pipeline.promises.contactDays"),
        trialDays: rangeInt("pipeline.promises.trialDays"),
        trialWorkingDays: z.boolean().default(false),
      }),
    })
    .superRefine(reasonsWhereAsked)
    .optional(),
  /** Fair assignment (ADR 353): on/off and the admins who take turns (checkboxes). */
  assignment: z
    .object({
      roundRobin: z.boolean().default(false),
      adminIds: z.array(z.number().int().positive()).default([]),
    })
    .default({ roundRobin: false, adminIds: [] }),
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
    mailIdentity,
    accessibility,
    ...rest
  } = config;
  const { adminEmails, ...notifications } = emailNotifications;
  const { hoursReviewed: _reviewed, ...week } = scheduling;
  return {
    ...rest,
    scheduling: { ...week, holidayState: week.holidayState ?? "" },
    emailNotifications: { ...notifications, adminIds: adminEmails.map((a) => a.id) },
    branding: brandingFormDefaults(branding, config.pipeline.promises),
    mailIdentity: mailIdentityFormDefaults(mailIdentity),
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
  /** The stored promises (the brand texts the form showed follow them, ADR 346). */
  storedPromises: PromiseSettings = DEFAULT_PROMISES,
): Omit<z.input<typeof ConfigurationSchema>, "webhooks"> {
  const { adminIds, ...notifications } = value.emailNotifications;
  const ids = new Set(adminIds);
  const { scheduling, transcription, ai, scriptFree, pipeline, accessibility, ...rest } = value;
  return {
    ...rest,
    // Without the manual budget (a hand-made post) the caller keeps the stored one.
    ai: { dailyLimit: ai.dailyLimit, manualDailyLimit: ai.manualDailyLimit },
    branding: brandingFromForm(value.branding, [
      storedPromises,
      ...(pipeline ? [pipeline.promises] : []),
    ]),
    mailIdentity: mailIdentityFromForm(value.mailIdentity),
    // A post without the week's fields (a hand-made one) keeps the stored week.
    ...(scheduling ? { scheduling } : {}),
    ...(pipeline ? { pipeline } : {}),
    ...(transcription ? { transcription } : {}),
    ...(scriptFree ? { scriptFree } : {}),
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
  "pipeline.stages": {
    insert: "Phase hinzugefügt – zum Übernehmen bitte speichern.",
    remove: "Phase entfernt – zum Übernehmen bitte speichern.",
    reorder: "Phase verschoben – zum Übernehmen bitte speichern.",
  },
  "pipeline.lostReasons": {
    insert: "Grund hinzugefügt – zum Übernehmen bitte speichern.",
    remove: "Grund entfernt – zum Übernehmen bitte speichern.",
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
