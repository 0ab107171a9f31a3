import { BRANDING_TEXT_KEYS, brandingDefaults } from "~/lib/branding";
import { mailIdentityFormDefaults } from "~/lib/mail-identity";
import { SETTINGS_SECTIONS } from "~/lib/settings-form";

// What the rendered settings form posts for a configuration (the JSON of GET /api/configuration):
// the page's no-JS post, for the settings tests and the two faces of the configuration's rules.
// biome-ignore lint/suspicious/noExplicitAny: the configuration JSON as the API returns it
export type SettingsConfig = Record<string, any>;
type Config = SettingsConfig;

/** What the rendered settings form posts for a configuration (every section's marker included). */
export function settingsFormPost(c: Config, omit: string[] = []) {
  const f = new URLSearchParams();
  for (const s of SETTINGS_SECTIONS) if (!omit.includes(s)) f.append("section", s);
  f.set("intent", "save");
  f.set("systemPrompt", c.systemPrompt);
  if (c.emailNotifications.enabled) f.set("emailNotifications.enabled", "on");
  if (c.emailNotifications.bookingNotice) f.set("emailNotifications.bookingNotice", "on");
  for (const a of c.emailNotifications.adminEmails)
    f.append("emailNotifications.adminIds", String(a.id));
  c.emailNotifications.externalEmails.forEach((e: string, i: number) => {
    f.set(`emailNotifications.externalEmails[${i}]`, e);
  });
  if (c.infoBanner.enabled) f.set("infoBanner.enabled", "on");
  f.set("infoBanner.text", c.infoBanner.text);
  f.set("uploadSettings.maxFilesPerRequest", String(c.uploadSettings.maxFilesPerRequest));
  f.set("uploadSettings.maxFileSizeMB", String(c.uploadSettings.maxFileSizeMB));
  f.set("uploadSettings.maxTotalSizeMB", String(c.uploadSettings.maxTotalSizeMB));
  for (const t of c.uploadSettings.allowedImageTypes)
    f.append("uploadSettings.allowedImageTypes", t);
  for (const t of c.uploadSettings.allowedDocumentTypes)
    f.append("uploadSettings.allowedDocumentTypes", t);
  c.preparationFields.forEach((p: Config, i: number) => {
    f.set(`preparationFields[${i}].id`, String(p.id));
    f.set(`preparationFields[${i}].name`, p.name);
    f.set(`preparationFields[${i}].label`, p.label);
    f.set(`preparationFields[${i}].placeholder`, p.placeholder);
  });
  f.set("appointmentEventType", c.appointmentEventType ?? "");
  f.set(
    "appointmentEventTypeDetails.title",
    c.appointmentEventTypeDetails?.title ?? "Termin buchen",
  );
  f.set("bookingLeadTime.days", String(c.bookingLeadTime.days));
  f.set("bookingLeadTime.hours", String(c.bookingLeadTime.hours));
  f.set("retention.requestMonths", String(c.retention.requestMonths));
  f.set("retention.requestAction", c.retention.requestAction);
  f.set("retention.outboxDays", String(c.retention.outboxDays));
  f.set("retention.auditDays", String(c.retention.auditDays));
  f.set("privacyNote", c.privacyNote);
  c.spam.blocklist.forEach((e: string, i: number) => {
    f.set(`spam.blocklist[${i}]`, e);
  });
  f.set("spam.quarantineDays", String(c.spam.quarantineDays));
  f.set("spam.heldBookingsPerDay", String(c.spam.heldBookingsPerDay));
  f.set("ai.dailyLimit", String(c.ai.dailyLimit));
  f.set("ai.manualDailyLimit", String(c.ai.manualDailyLimit));
  // The brand card (ADR 268) shows every text, today's where none is stored.
  const brand = c.branding ?? {};
  for (const key of BRANDING_TEXT_KEYS)
    f.set(`branding.${key}`, brand[key] ?? brandingDefaults[key]);
  for (const key of ["privacyUrl", "imprintUrl", "primaryColor"])
    f.set(`branding.${key}`, brand[key] ?? "");
  (brand.faq ?? brandingDefaults.faq).forEach((e: Config, i: number) => {
    f.set(`branding.faq[${i}].question`, e.question);
    f.set(`branding.faq[${i}].answer`, e.answer);
  });
  // Absender und Pflichtangaben (ADR 325): every field, the sign-off lines' defaults shown.
  for (const [key, value] of Object.entries(mailIdentityFormDefaults(c.mailIdentity)))
    f.set(`mailIdentity.${key}`, value);
  // Pipeline und Versprechen (ADRs 345, 346).
  c.pipeline.stages.forEach((stage: Config, i: number) => {
    f.set(`pipeline.stages[${i}].id`, stage.id);
    f.set(`pipeline.stages[${i}].name`, stage.name);
    f.set(`pipeline.stages[${i}].status`, stage.status);
    if (stage.askReason) f.set(`pipeline.stages[${i}].askReason`, "on");
  });
  c.pipeline.lostReasons.forEach((reason: string, i: number) => {
    f.set(`pipeline.lostReasons[${i}]`, reason);
  });
  f.set("pipeline.promises.contactDays", String(c.pipeline.promises.contactDays));
  f.set("pipeline.promises.trialDays", String(c.pipeline.promises.trialDays));
  if (c.pipeline.promises.trialWorkingDays) f.set("pipeline.promises.trialWorkingDays", "on");
  return f;
}
