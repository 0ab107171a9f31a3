import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { ACCESSIBILITY_PATH } from "~/lib/accessibility";
import { isDeliverableAddress } from "~/lib/mail-address";
import { LEGAL_FORM_LABELS, missingIdentityFields } from "~/lib/mail-identity";
import { ENV_HELP_HREF, isReady, type SetupCheck, type SetupCheckItem } from "~/lib/setup-check";
import { listAdmins } from "../accounts/admins.server";
import type { AdminUser } from "../accounts/auth.server";
import { branding } from "../branding/branding.server";
import { getConfiguration } from "../configuration/configuration.server";
import { notificationRecipients } from "../mail/notifications.server";
import { mailConfigured, queueMail } from "../mail/outbox.server";
import { TEST_MAIL_KIND, type TestMailState, testMailState } from "../mail/test-mail.server";
import { env, replicationOn } from "../platform/env.server";
import { testMailLimiter } from "../platform/rate-limit.server";
import type { Failure } from "../platform/result.server";

/**
 * The go-live check (ADR 225): what an agency must set up before its first lead — working mail,
 * a public https address, its own legal pages, reachable admin addresses, a stable session secret
 * and backups. One function for the dashboard and `GET /api/admin/setup-check`.
 */

const DEFAULT_PRIVACY_URL = "https://example.com/datenschutz";
const DEFAULT_IMPRINT_URL = "https://example.com/impressum";
/** A backup older than this does not count (`npm run backup` is meant to run daily). */
export const BACKUP_MAX_AGE_MS = 48 * 3600_000;
/** Names `npm run backup` gives its files in `<data dir>/backups/` (scripts/backup.ts). */
const BACKUP_NAME = /^\d{4}-\d\d-\d\dT[\d-]+Z\.sqlite$/;

const OUTBOX = "/admin/settings/outbox";

/** When the newest backup in `<data dir>/backups/` was written, or null. */
export function newestBackupAt(): Date | null {
  const dir = path.join(env().DATA_DIR, "backups");
  let newest: Date | null = null;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return null;
  }
  for (const name of names.filter((n) => BACKUP_NAME.test(n))) {
    try {
      const at = statSync(path.join(dir, name)).mtime;
      if (!newest || at > newest) newest = at;
    } catch {}
  }
  return newest;
}

function smtpItem(): SetupCheckItem {
  const ok = mailConfigured();
  return {
    id: "smtp",
    ok,
    optional: false,
    message: ok
      ? "E-Mails werden über SMTP versendet."
      : "Richten Sie den E-Mail-Versand ein: Setzen Sie SMTP_URL (z. B. smtps://benutzer:passwort@mail.example.de:465) und MAIL_FROM. Bis dahin bleiben alle E-Mails im Postausgang – auch Benachrichtigungen über neue Anfragen und Passwort-Links.",
    href: ok ? OUTBOX : ENV_HELP_HREF,
  };
}

function testMailItem(state: TestMailState, smtp: boolean): SetupCheckItem {
  const ok = smtp && state.state === "sent";
  const message = ok
    ? "Die Test-E-Mail wurde erfolgreich versendet."
    : !smtp
      ? "Richten Sie zuerst SMTP ein und senden Sie dann eine Test-E-Mail an Ihre Adresse."
      : state.state === "failed"
        ? `Die Test-E-Mail konnte nicht versendet werden${state.error ? ` (${state.error})` : ""}. Prüfen Sie SMTP_URL und MAIL_FROM und senden Sie erneut eine Test-E-Mail.`
        : state.state === "pending"
          ? "Die Test-E-Mail wird gerade versendet. Laden Sie die Seite gleich neu."
          : "Senden Sie eine Test-E-Mail an Ihre Adresse und prüfen Sie, ob sie ankommt.";
  return {
    id: "testMail",
    ok,
    optional: false,
    message,
    href:
      state.state === "failed" || state.state === "pending" ? OUTBOX : "/admin/dashboard#go-live",
  };
}

function appUrlItem(): SetupCheckItem {
  const url = env().APP_URL;
  const ok = url.startsWith("https://");
  return {
    id: "appUrlHttps",
    ok,
    optional: false,
    message: ok
      ? `Das Portal ist unter ${url} erreichbar; Links in E-Mails zeigen dorthin.`
      : `Setzen Sie APP_URL auf die öffentliche https-Adresse des Portals (z. B. https://anfragen.ihre-agentur.de). Derzeit zeigen die Links in E-Mails auf ${url}.`,
    href: ENV_HELP_HREF,
  };
}

function legalItem(): SetupCheckItem {
  // Set in the settings (Erscheinungsbild und Inhalte, ADR 268) or by the env variables.
  const { privacyUrl: PRIVACY_URL, imprintUrl: IMPRINT_URL } = branding();
  const isExample = (url: string, fallback: string) =>
    url === fallback || new URL(url).hostname.replace(/^www\./, "") === "example.com";
  const missing = [
    isExample(PRIVACY_URL, DEFAULT_PRIVACY_URL) ? "PRIVACY_URL (Datenschutzerklärung)" : null,
    isExample(IMPRINT_URL, DEFAULT_IMPRINT_URL) ? "IMPRINT_URL (Impressum)" : null,
  ].filter(Boolean);
  const ok = missing.length === 0;
  return {
    id: "legalUrls",
    ok,
    optional: false,
    message: ok
      ? "Impressum und Datenschutzerklärung verweisen auf Ihre eigenen Seiten."
      : `Setzen Sie ${missing.join(" und ")} auf Ihre eigene Seite – unter Einstellungen → Erscheinungsbild und Inhalte oder als Umgebungsvariable. Die Links im Footer zeigen noch auf example.com – ohne Impressum und Datenschutzerklärung dürfen Sie die Seite in Deutschland nicht veröffentlichen.`,
    href: ok ? ENV_HELP_HREF : "/admin/settings#branding",
  };
}

/** Where the settings card "Absender und Pflichtangaben" is (ADR 325). */
export const MAIL_IDENTITY_HREF = "/admin/settings#mailIdentity";

/**
 * Every mail carries the Firma and the Pflichtangaben of its legal form (ADR 325): green once the
 * chosen form's required fields are entered; the message names what is missing.
 */
function mailIdentityItem(): SetupCheckItem {
  const identity = getConfiguration().mailIdentity;
  const missing = missingIdentityFields(identity);
  const ok = missing.length === 0;
  const form = identity.legalForm ? LEGAL_FORM_LABELS[identity.legalForm] : null;
  return {
    id: "mailIdentity",
    ok,
    optional: false,
    message: ok
      ? `Jede E-Mail trägt die Firma ${identity.companyName} und die Pflichtangaben (${form}).`
      : `Tragen Sie unter „Einstellungen → Absender und Pflichtangaben“ Ihre Firma und die Pflichtangaben Ihrer Rechtsform ein – geschäftliche E-Mails müssen sie in Deutschland tragen. Es fehlt: ${missing.join(", ")}.`,
    href: MAIL_IDENTITY_HREF,
  };
}

function adminEmailsItem(caller: Pick<AdminUser, "id">): SetupCheckItem {
  const unreachable = listAdmins().filter((a) => a.is_active && !isDeliverableAddress(a.email));
  const ok = unreachable.length === 0;
  const callerAffected = unreachable.some((a) => a.id === caller.id);
  return {
    id: "adminEmails",
    ok,
    optional: false,
    message: ok
      ? "Alle aktiven Admins haben eine erreichbare E-Mail-Adresse."
      : `Hinterlegen Sie für jedes aktive Admin-Konto eine erreichbare E-Mail-Adresse – sonst kommen Benachrichtigungen und Passwort-Links nicht an. Betroffen: ${unreachable.map((a) => a.username).join(", ")}. Jeder Admin ändert seine Adresse unter „Account-Einstellungen“.`,
    href: callerAffected || ok ? "/admin/account" : "/admin/users",
  };
}

function sessionSecretItem(): SetupCheckItem {
  const ok = env().SESSION_SECRET_FROM_ENV;
  return {
    id: "sessionSecret",
    ok,
    optional: false,
    message: ok
      ? "SESSION_SECRET ist als Umgebungsvariable gesetzt."
      : "Setzen Sie SESSION_SECRET als Umgebungsvariable (z. B. erzeugt mit „openssl rand -hex 32“). Der automatisch erzeugte Schlüssel liegt nur in der Datei .session-secret neben der Datenbank; geht sie verloren oder wird die Datenbank woanders wiederhergestellt, sind alle Anmeldungen und Links aus E-Mails ungültig.",
    href: ENV_HELP_HREF,
  };
}

function backupsItem(now: Date): SetupCheckItem {
  const replicated = replicationOn();
  const newest = newestBackupAt();
  const recent = newest !== null && now.getTime() - newest.getTime() < BACKUP_MAX_AGE_MS;
  const ok = replicated || recent;
  const last = newest
    ? `Die letzte Sicherung ist vom ${newest.toLocaleString("de-DE", { timeZone: "Europe/Berlin", dateStyle: "medium", timeStyle: "short" })} Uhr.`
    : "Es gibt noch keine Sicherung.";
  return {
    id: "backups",
    ok,
    optional: false,
    message: replicated
      ? "Die Datenbank wird laufend mit Litestream gesichert."
      : recent
        ? `${last} Sie ist jünger als 48 Stunden.`
        : `Richten Sie Sicherungen ein: Setzen Sie LITESTREAM_REPLICA_URL (oder BUCKET_NAME) für eine laufende Sicherung, oder lassen Sie „npm run backup“ täglich laufen (z. B. per Cron). ${last}`,
    href: ENV_HELP_HREF,
  };
}

/**
 * Whether a new lead reaches anyone by mail. Optional (the spec leaves notifications off until an
 * admin turns them on, and `ready` is about what the law and the mail need), but listed: without it
 * the first lead waits unseen in the list.
 */
function notificationsItem(): SetupCheckItem {
  const recipients = notificationRecipients();
  const ok = recipients.length > 0;
  return {
    id: "notifications",
    ok,
    optional: true,
    message: ok
      ? `Neue Anfragen werden per E-Mail an ${recipients.length === 1 ? "1 Adresse" : `${recipients.length} Adressen`} gemeldet.`
      : "Empfohlen: Schalten Sie unter „Einstellungen → E-Mail-Benachrichtigungen“ die Benachrichtigungen ein und wählen Sie, wer bei jeder neuen Anfrage eine E-Mail bekommt – sonst bemerkt niemand die erste Anfrage, bevor er die Liste öffnet.",
    href: "/admin/settings#notifications",
  };
}

/**
 * The built-in scheduler offers Mo–Fr 09:00–17:00 until an admin saved the section
 * "Terminbuchung" (or patched `scheduling`): green once the hours were reviewed, or with Cal.com.
 */
function schedulingItem(): SetupCheckItem {
  const calcom = Boolean(env().CALCOM_API_KEY);
  const ok = calcom || getConfiguration().scheduling.hoursReviewed;
  return {
    id: "scheduling",
    ok,
    optional: false,
    message: calcom
      ? "Arbeitszeiten und Termine verwaltet Cal.com."
      : ok
        ? "Die Arbeitszeiten, Feiertage und gesperrten Tage der Terminbuchung sind geprüft."
        : "Prüfen Sie unter „Einstellungen → Terminbuchung“ Ihre Arbeitszeiten, Pausen, Feiertage und gesperrten Tage und speichern Sie sie – bis dahin bietet das Portal Termine Mo–Fr von 9 bis 17 Uhr an.",
    href: "/admin/settings#scheduling",
  };
}

function aiItem(): SetupCheckItem {
  const ok = Boolean(env().ANTHROPIC_API_KEY);
  return {
    id: "ai",
    ok,
    optional: true,
    message: ok
      ? "Die KI-Unterstützung ist eingerichtet."
      : "Optional: Setzen Sie ANTHROPIC_API_KEY, damit Anfragen automatisch mit KI vorbereitet werden. Ohne Schlüssel erstellt das Portal den Prompt aus einer Vorlage.",
    href: ENV_HELP_HREF,
  };
}

/**
 * The accessibility statement (BFSG §14, ADR 340). Optional: micro-enterprises providing services
 * and pure B2B offers are exempt. Green once it is published and names the market surveillance
 * authority and the Schlichtung (§ 34 BFSG), which the product cannot know as its own.
 */
function accessibilityItem(): SetupCheckItem {
  const statement = getConfiguration().accessibility;
  const missing = [
    statement.authority ? null : "die Marktüberwachungsbehörde",
    statement.arbitration ? null : "die Schlichtungsstelle",
  ].filter(Boolean);
  const ok = statement.publish && missing.length === 0;
  return {
    id: "accessibility",
    ok,
    optional: true,
    message: ok
      ? `Die Erklärung zur Barrierefreiheit ist veröffentlicht (${ACCESSIBILITY_PATH}) und nennt Marktüberwachungsbehörde und Schlichtungsstelle.`
      : !statement.publish
        ? "Optional: Veröffentlichen Sie unter „Einstellungen → Barrierefreiheit“ die Erklärung zur Barrierefreiheit. Seit dem 28. Juni 2025 verlangt das Barrierefreiheitsstärkungsgesetz sie für Dienstleistungen an Verbraucher wie die Terminbuchung (Kleinstunternehmen sind ausgenommen)."
        : `Optional: Nennen Sie unter „Einstellungen → Barrierefreiheit“ ${missing.join(" und ")} (Vorschläge lassen sich dort einsetzen) – §\u00a014 BFSG verlangt diese Angaben.`,
    href: "/admin/settings#accessibility",
  };
}

/** Every item for the calling admin (the admin-address item points them to their own account). */
export function setupCheck(caller: Pick<AdminUser, "id">, now = new Date()): SetupCheck {
  const smtp = mailConfigured();
  const items = [
    smtpItem(),
    testMailItem(testMailState(), smtp),
    appUrlItem(),
    legalItem(),
    mailIdentityItem(),
    adminEmailsItem(caller),
    sessionSecretItem(),
    backupsItem(now),
    schedulingItem(),
    notificationsItem(),
    aiItem(),
    accessibilityItem(),
  ];
  return { ready: isReady(items), items };
}

/**
 * Queues a test mail to the calling admin (through the outbox, like every mail). Once it has left
 * through SMTP the check's `testMail` item turns green. Without SMTP it waits in the outbox.
 * At most TEST_MAIL_LIMIT per admin: the button must not become a way to flood a mailbox.
 */
export async function sendTestMail(
  admin: Pick<AdminUser, "id" | "username" | "email">,
): Promise<
  { ok: true; mailed: boolean; message: string } | (Failure & { retryAfterSeconds: number })
> {
  const limited = await testMailLimiter().consume(`admin:${admin.id}`);
  if (!limited.ok) return limited;
  queueMail({
    to: admin.email,
    subject: `Test-E-Mail von ${branding().name}`,
    kind: TEST_MAIL_KIND,
    content: {
      greeting: `Hallo ${admin.username},`,
      paragraphs: [
        "diese Test-E-Mail hat der Go-live-Check Ihres Portals versendet. Wenn Sie sie lesen, funktioniert der E-Mail-Versand.",
        "Sie müssen nichts weiter tun.",
      ],
    },
  });
  const mailed = mailConfigured();
  return {
    ok: true,
    mailed,
    message: mailed
      ? `Die Test-E-Mail an ${admin.email} ist unterwegs. Prüfen Sie Ihr Postfach; der Go-live-Check zeigt den Versand an.`
      : `Die Test-E-Mail an ${admin.email} liegt im Postausgang. Ohne SMTP_URL wird sie nicht versendet.`,
  };
}
