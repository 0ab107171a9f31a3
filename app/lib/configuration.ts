// Before any schema runs at module load (the defaults below parse): no eval under our CSP.
import "./zod-jitless.client";
import { z } from "zod";
import { AccessibilitySchema, DEFAULT_ACCESSIBILITY } from "./accessibility";
import { openWeekdays } from "./availability";
import { SpamSettingsSchema } from "./blocklist";
import { type Branding, BrandingSchema, EMPTY_BRANDING } from "./branding";
import { DEFAULT_EMBED, EmbedSettingsSchema } from "./embed";
import { EMPTY_MAIL_IDENTITY, MailIdentitySchema } from "./mail-identity";
import { PipelineSchema } from "./pipeline";
import { SchedulingSettingsSchema } from "./scheduling-settings";
import { clampedSetting, NUMBER_SETTINGS } from "./setting-ranges";
import { TeamCalendarSchema } from "./team-calendar";
import { WebhookListSchema } from "./webhooks";

export const IMAGE_TYPES = ["jpg", "jpeg", "png", "gif", "webp", "bmp"] as const;
export const DOCUMENT_TYPES = ["pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "csv"] as const;

const extensionList = (allowed: readonly string[], fallback: readonly string[]) =>
  z.preprocess(
    (v) => (Array.isArray(v) ? v : fallback),
    z
      .array(z.string())
      .transform((list) => [
        ...new Set(
          list
            .map((e) => e.trim().toLowerCase().replace(/^\./, ""))
            .filter((e) => allowed.includes(e)),
        ),
      ]),
  );

export const PreparationFieldSchema = z.object({
  id: z.coerce.number().int().min(1),
  name: z
    .string({ error: "Bitte füllen Sie mindestens Name und Label aus!" })
    .transform((s) => s.replace(/[^\p{L}\p{N}]/gu, ""))
    .pipe(
      z
        .string({ error: "Bitte füllen Sie mindestens Name und Label aus!" })
        .min(1, "Bitte füllen Sie mindestens Name und Label aus!"),
    ),
  label: z
    .string({ error: "Bitte füllen Sie mindestens Name und Label aus!" })
    .trim()
    .min(1, "Bitte füllen Sie mindestens Name und Label aus!"),
  placeholder: z.string().default(""),
});
export type PreparationField = z.infer<typeof PreparationFieldSchema>;

export const NotificationAdminSchema = z.object({
  id: z.coerce.number().int(),
  username: z.string().default(""),
  email: z.string().default(""),
});

export const UploadSettingsSchema = z
  .object({
    maxFilesPerRequest: clampedSetting("uploadSettings.maxFilesPerRequest"),
    maxFileSizeMB: clampedSetting("uploadSettings.maxFileSizeMB"),
    maxTotalSizeMB: clampedSetting("uploadSettings.maxTotalSizeMB"),
    allowedImageTypes: extensionList(IMAGE_TYPES, IMAGE_TYPES),
    allowedDocumentTypes: extensionList(DOCUMENT_TYPES, DOCUMENT_TYPES),
  })
  // A file larger than the whole upload can never be sent: per file is clamped to the total, like
  // each limit is clamped to its range (also for a configuration stored before this rule).
  .transform((s) => ({ ...s, maxFileSizeMB: Math.min(s.maxFileSizeMB, s.maxTotalSizeMB) }));
export type UploadSettings = z.infer<typeof UploadSettingsSchema>;

export const DEFAULT_PREPARATION_FIELDS: PreparationField[] = [
  { id: 1, name: "zielgruppe", label: "Zielgruppe", placeholder: "Wer nutzt die Software?" },
  {
    id: 2,
    name: "kernfunktionen",
    label: "Kernfunktionen",
    placeholder: "Was muss die Testversion können?",
  },
  {
    id: 3,
    name: "technologie",
    label: "Technologie",
    placeholder: "Empfohlener Technologie-Stack",
  },
  {
    id: 4,
    name: "offeneFragen",
    label: "Offene Fragen",
    placeholder: "Was klären wir im Demo-Termin?",
  },
];

export const DEFAULT_SYSTEM_PROMPT =
  "Du bist ein erfahrener Software-Berater einer Agentur. Du bereitest Kundenanfragen so vor, " +
  "dass das Team innerhalb von drei Tagen eine Testversion bauen kann. Antworte knapp, konkret und auf Deutsch.";

export const RETENTION_ACTIONS = ["delete", "anonymize"] as const;
export const DEFAULT_RETENTION = {
  requestMonths: NUMBER_SETTINGS["retention.requestMonths"].default,
  requestAction: "delete" as (typeof RETENTION_ACTIONS)[number],
  outboxDays: NUMBER_SETTINGS["retention.outboxDays"].default,
  auditDays: NUMBER_SETTINGS["retention.auditDays"].default,
};

/** Retention periods (DSGVO Art. 5(1)(e)), clamped to sane bounds. */
export const RetentionSchema = z.object({
  requestMonths: clampedSetting("retention.requestMonths"),
  requestAction: z.enum(RETENTION_ACTIONS).catch("delete"),
  outboxDays: clampedSetting("retention.outboxDays"),
  auditDays: clampedSetting("retention.auditDays"),
});

/** The note beside the form; `{monate}` is replaced by the retention in months. */
export const DEFAULT_PRIVACY_NOTE =
  "Wir speichern deine Angaben, Dateien und Sprachnachricht nur, um deine Anfrage zu bearbeiten und dir eine Testversion zu zeigen. Ohne weitere Bearbeitung löschen wir sie nach {monate} Monaten; du kannst deine Anfrage jederzeit zurückziehen.";

export const DEFAULT_AI_DAILY_LIMIT = NUMBER_SETTINGS["ai.dailyLimit"].default;
export const DEFAULT_TRANSCRIPTION_DAILY_LIMIT =
  NUMBER_SETTINGS["transcription.dailyLimit"].default;
export const DEFAULT_AI_MANUAL_DAILY_LIMIT = NUMBER_SETTINGS["ai.manualDailyLimit"].default;
export const DEFAULT_SCRIPT_FREE_DAILY_LIMIT = NUMBER_SETTINGS["scriptFree.dailyLimit"].default;

/**
 * Fair assignment (ADR 353): off by default; when on, each released request goes to the next admin
 * of `adminIds` in turn (inactive and absent ones skipped).
 */
export const AssignmentSettingsSchema = z.object({
  roundRobin: z.boolean().default(false),
  adminIds: z
    .array(z.coerce.number().int().positive())
    .max(500)
    .default([])
    .transform((ids) => [...new Set(ids)]),
});
export const DEFAULT_ASSIGNMENT = { roundRobin: false, adminIds: [] as number[] };

/** The whole configuration document: one schema with the spec's defaults and clamps. */
export const ConfigurationSchema = z.object({
  systemPrompt: z.string().max(20_000).default(DEFAULT_SYSTEM_PROMPT),
  preparationFields: z
    .array(PreparationFieldSchema)
    .default(DEFAULT_PREPARATION_FIELDS)
    .refine(
      (fields) => new Set(fields.map((f) => f.name.toLowerCase())).size === fields.length,
      "Jeder Feldname darf nur einmal vorkommen.",
    ),
  emailNotifications: z
    .object({
      enabled: z.boolean().default(false),
      /** Also announce booked demos to the recipients (own setting, default off). */
      bookingNotice: z.boolean().default(false),
      adminEmails: z.array(NotificationAdminSchema).default([]),
      externalEmails: z
        .array(z.string().trim().pipe(z.email("Bitte geben Sie eine gültige E-Mail-Adresse ein!")))
        .default([])
        .transform((list) => [...new Set(list.map((e) => e.toLowerCase()))]),
    })
    .default({ enabled: false, bookingNotice: false, adminEmails: [], externalEmails: [] }),
  // Left out: every number its default (NUMBER_SETTINGS), every type allowed.
  uploadSettings: UploadSettingsSchema.prefault({
    allowedImageTypes: [...IMAGE_TYPES],
    allowedDocumentTypes: [...DOCUMENT_TYPES],
  }),
  appointmentEventType: z
    .string()
    .trim()
    .max(200)
    .nullable()
    .transform((v) => (v === "" ? null : v))
    .default("demo"),
  appointmentEventTypeDetails: z
    .object({ title: z.string().default("Termin buchen") })
    .default({ title: "Termin buchen" }),
  bookingLeadTime: z
    .object({
      days: clampedSetting("bookingLeadTime.days"),
      hours: clampedSetting("bookingLeadTime.hours"),
    })
    .prefault({}),
  /** The built-in scheduler's week: hours, step, buffers, holidays, blocked days (ADR 264). */
  scheduling: SchedulingSettingsSchema,
  infoBanner: z
    .object({ enabled: z.boolean().default(false), text: z.string().max(2000).default("") })
    .default({ enabled: false, text: "" }),
  retention: RetentionSchema.default(DEFAULT_RETENTION),
  privacyNote: z
    .string()
    .max(2000)
    .default(DEFAULT_PRIVACY_NOTE)
    .transform((v) => v.trim() || DEFAULT_PRIVACY_NOTE),
  /** Outgoing webhooks (ADR 248); secrets encrypted at rest, never returned in full. */
  webhooks: WebhookListSchema,
  /** "Zwei-Faktor-Anmeldung für alle Admins verlangen" (ADR 256): set on /admin/account. */
  security: z
    .object({ requireTwoFactor: z.boolean().default(false) })
    .default({ requireTwoFactor: false }),
  /**
   * AI budgets per Berlin day (ADR 255, 319): `dailyLimit` for the automatic summaries of
   * visitors' requests (beyond it they wait for the next day), `manualDailyLimit` for the admins'
   * own actions ("Automatisch vorbereiten", the coding prompt; beyond it 429).
   */
  ai: z
    .object({
      dailyLimit: clampedSetting("ai.dailyLimit"),
      manualDailyLimit: clampedSetting("ai.manualDailyLimit"),
    })
    .prefault({}),
  /**
   * Transcription budget (ADR 272): recordings sent to the transcription service per
   * Berlin day; beyond it the rest wait for the next day.
   */
  transcription: z.object({ dailyLimit: clampedSetting("transcription.dailyLimit") }).prefault({}),
  /**
   * The script-free challenge (ADR 326): requests a day that a right answer releases from the
   * quarantine (all visitors together); beyond it they wait for a human. 0 = no question asked.
   */
  scriptFree: z.object({ dailyLimit: clampedSetting("scriptFree.dailyLimit") }).prefault({}),
  /** Spam defence (ADR 251): never in the public configuration. */
  spam: SpamSettingsSchema.prefault({}),
  /** Name, legal links, logo, colour and landing texts (ADRs 268, 269); null = today's default. */
  branding: BrandingSchema.default(EMPTY_BRANDING),
  /** The websites that may frame the contact form at /embed (ADR 283); empty = off. Not public. */
  embed: EmbedSettingsSchema.default(DEFAULT_EMBED),
  /** The team's busy-time feeds (URLs encrypted at rest, masked) and fixed video room (ADRs 266, 267). */
  teamCalendar: TeamCalendarSchema,
  /** Sender and legal details of every mail's signature (ADR 325). Not public. */
  mailIdentity: MailIdentitySchema.default(EMPTY_MAIL_IDENTITY),
  /** The pipeline's stages, the reasons of "Verloren" and the two promises (ADRs 345, 346). */
  pipeline: PipelineSchema,
  /** Fair assignment of released requests (ADR 353); not public. */
  assignment: AssignmentSettingsSchema.default(DEFAULT_ASSIGNMENT),
  /** The accessibility statement at /barrierefreiheit (BFSG §14, ADR 340); null texts = defaults. */
  accessibility: AccessibilitySchema.default(DEFAULT_ACCESSIBILITY),
});

export type Configuration = z.infer<typeof ConfigurationSchema>;

export const DEFAULT_CONFIGURATION: Configuration = ConfigurationSchema.parse({});

/** What visitors may see: never the system prompt or admin e-mails. */
export function publicConfiguration(config: Configuration, branding: Branding) {
  return {
    branding,
    infoBanner: config.infoBanner,
    appointmentEventType: config.appointmentEventType,
    appointmentEventTypeDetails: config.appointmentEventTypeDetails,
    bookingLeadTime: config.bookingLeadTime,
    /** The weekdays with working hours (0 = Sunday): the dialog's selectable days and hint. */
    bookingWeekdays: openWeekdays(config.scheduling.weeklyHours),
    /** The booking horizon in days (0 = none): later days are greyed out, the hint names the last. */
    bookingHorizonDays: config.scheduling.horizonDays,
    uploadSettings: config.uploadSettings,
  };
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A partial PATCH over the stored configuration: objects merge key by key (at any depth), every other
 * value (lists included) replaces the stored one. Keys the patch leaves out keep their stored value,
 * so `{ systemPrompt }` never resets the notification lists or the preparation fields.
 */
export function mergeConfigurationPatch(current: unknown, patch: unknown): unknown {
  if (!isPlainObject(current) || !isPlainObject(patch)) return patch;
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    merged[key] = mergeConfigurationPatch(current[key], value);
  }
  return merged;
}
