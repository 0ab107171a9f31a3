/** The go-live check (dashboard and `GET /api/admin/setup-check`): wire types, shared by server and page. */
export const SETUP_CHECK_IDS = [
  "smtp",
  "testMail",
  "appUrlHttps",
  "legalUrls",
  "mailIdentity",
  "adminEmails",
  "sessionSecret",
  "backups",
  "scheduling",
  "notifications",
  "ai",
  "accessibility",
] as const;
export type SetupCheckId = (typeof SETUP_CHECK_IDS)[number];

export type SetupCheckItem = {
  id: SetupCheckId;
  ok: boolean;
  /** Optional items never hold back `ready`. */
  optional: boolean;
  /** German, "Sie": what is fine, or what to do. */
  message: string;
  /** Where to do it (an admin page or the check's own help on the dashboard). */
  href: string;
};

export type SetupCheck = { ready: boolean; items: SetupCheckItem[] };

/** German titles of the items (the dashboard's list). */
export const SETUP_CHECK_TITLES: Record<SetupCheckId, string> = {
  smtp: "E-Mail-Versand (SMTP)",
  testMail: "Test-E-Mail",
  appUrlHttps: "Öffentliche Adresse (https)",
  legalUrls: "Impressum und Datenschutz",
  mailIdentity: "Absender und Pflichtangaben in E-Mails",
  adminEmails: "E-Mail-Adressen der Admins",
  sessionSecret: "Sitzungsschlüssel",
  backups: "Sicherungen",
  scheduling: "Terminbuchung: Arbeitszeiten",
  notifications: "Benachrichtigungen über neue Anfragen",
  ai: "KI-Unterstützung",
  accessibility: "Erklärung zur Barrierefreiheit",
};

/** Ready when every required item is green. */
export const isReady = (items: readonly SetupCheckItem[]) =>
  items.every((item) => item.ok || item.optional);

/** Where the dashboard explains how environment variables are set. */
export const ENV_HELP_HREF = "/admin/dashboard#umgebungsvariablen";
