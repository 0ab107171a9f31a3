/** Audit log actions and their German labels (the /admin/audit filter and table). */
export const AUDIT_ACTIONS = [
  "login",
  "status",
  "assign",
  "unassign",
  "export-person",
  "export-csv",
  "delete",
  "release",
  "withdraw",
  "retention",
  "password-reset-link",
  "account",
  "2fa-enabled",
  "2fa-disabled",
  "recovery-code-used",
  "recovery-codes-regenerated",
  "2fa-reset",
  "passkey-added",
  "passkey-removed",
  "login-failed",
  "login-locked",
  "password-changed",
  "password-reset",
  "settings",
  "webhook-added",
  "webhook-changed",
  "webhook-removed",
  "invitation-sent",
  "invitation-resent",
  "invitation-revoked",
  "account-activated",
  "account-deactivated",
  "account-deleted",
  "attachment-downloaded",
  "session-ended",
  "api-token-created",
  "api-token-revoked",
  "message-sent",
  "calendar-feed-created",
  "calendar-feed-revoked",
  "appointment-cancelled",
  "appointment-moved",
  "calendar-connected",
  "calendar-disconnected",
  "appointment-deleted",
  "affiliate-code-created",
  "affiliate-code-changed",
  "affiliate-code-deleted",
  "archive",
  "unarchive",
  "preparation-edited",
  "stage",
  "trial-delivered",
  "note-added",
  "note-edited",
  "note-deleted",
  "follow-up-set",
  "follow-up-done",
  "assign-round-robin",
  "work-settings",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_LABELS: Record<AuditAction, string> = {
  login: "Anmeldung",
  status: "Status geändert",
  assign: "Zugewiesen",
  unassign: "Zuweisung entfernt",
  "export-person": "Daten exportiert (Person)",
  "export-csv": "Liste exportiert (CSV)",
  delete: "Anfrage gelöscht",
  release: "Anfrage freigegeben (Spamprüfung)",
  withdraw: "Anfrage vom Besucher zurückgezogen",
  retention: "Aufbewahrung angewendet",
  "password-reset-link": "Passwort-Reset-Link erzeugt",
  account: "Eigenes Konto geändert",
  "2fa-enabled": "Zwei-Faktor-Anmeldung eingeschaltet",
  "2fa-disabled": "Zwei-Faktor-Anmeldung ausgeschaltet",
  "recovery-code-used": "Wiederherstellungscode verwendet",
  "recovery-codes-regenerated": "Wiederherstellungscodes neu erzeugt",
  "2fa-reset": "Zwei-Faktor-Anmeldung zurückgesetzt",
  "passkey-added": "Passkey hinzugefügt",
  "passkey-removed": "Passkey entfernt",
  "login-failed": "Anmeldung fehlgeschlagen",
  "login-locked": "Anmeldung gesperrt (zu viele Fehlversuche)",
  "password-changed": "Passwort geändert",
  "password-reset": "Passwort zurückgesetzt",
  settings: "Einstellungen gespeichert",
  "webhook-added": "Webhook hinzugefügt",
  "webhook-changed": "Webhook geändert",
  "webhook-removed": "Webhook entfernt",
  "invitation-sent": "Einladung gesendet",
  "invitation-resent": "Einladung erneut gesendet",
  "invitation-revoked": "Einladung widerrufen",
  "account-activated": "Konto freigeschaltet",
  "account-deactivated": "Konto deaktiviert",
  "account-deleted": "Konto gelöscht",
  "attachment-downloaded": "Anhang heruntergeladen",
  "session-ended": "Sitzung abgemeldet",
  "api-token-created": "API-Zugang erstellt",
  "api-token-revoked": "API-Zugang widerrufen",
  "message-sent": "Nachricht an den Kunden gesendet",
  "calendar-feed-created": "Kalender-Abo-Link erzeugt",
  "calendar-feed-revoked": "Kalender-Abo-Link widerrufen",
  "appointment-cancelled": "Termin abgesagt (durch Admin)",
  "appointment-moved": "Termin verschoben (durch Admin)",
  "calendar-connected": "Kalender (CalDAV) verbunden",
  "calendar-disconnected": "Kalender (CalDAV) getrennt",
  "appointment-deleted": "Termin aus der Liste entfernt",
  "affiliate-code-created": "Affiliate-Code erstellt",
  "affiliate-code-changed": "Affiliate-Code geändert",
  "affiliate-code-deleted": "Affiliate-Code gelöscht",
  archive: "Anfrage archiviert",
  unarchive: "Anfrage wiederhergestellt",
  "preparation-edited": "Vorbereitung bearbeitet",
  stage: "Phase geändert",
  "trial-delivered": "Testversion geliefert",
  "note-added": "Notiz geschrieben",
  "note-edited": "Notiz geändert",
  "note-deleted": "Notiz gelöscht",
  "follow-up-set": "Wiedervorlage gesetzt",
  "follow-up-done": "Wiedervorlage erledigt",
  "assign-round-robin": "Zugewiesen (faire Verteilung)",
  "work-settings": "Morgenübersicht/Abwesenheit geändert",
};

/**
 * How an admin acted (ADR 319), as the audit page and its CSV say it: "session", "token:<id>",
 * "cli" as stored; "–" for entries without (jobs, visitors, failed logins, older entries).
 */
export function auditViaLabel(via: string | null): string {
  if (via === "session") return "Sitzung";
  if (via === "cli") return "Kommandozeile";
  const token = via ? /^token:(\d+)$/.exec(via) : null;
  if (token) return `API-Zugang #${token[1]}`;
  return "–";
}

/**
 * The network of an address, coarse enough for the audit log of failed logins: an IPv4 /24, an
 * IPv6 /48 (never the address itself).
 */
export function networkOf(ip: string): string {
  const bare = ip.trim().replace(/^::ffff:(?=\d+\.)/i, "");
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/.exec(bare);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (!bare.includes(":")) return "unbekannt";
  const [head = ""] = bare.split("%")[0]?.split("::") ?? [];
  const groups = head.split(":").filter(Boolean).slice(0, 3);
  while (groups.length < 3) groups.push("0");
  return `${groups.map((g) => g.toLowerCase().replace(/^0+(?=.)/, "")).join(":")}::/48`;
}

export const isAuditAction = (value: unknown): value is AuditAction =>
  typeof value === "string" && (AUDIT_ACTIONS as readonly string[]).includes(value);

export type AuditQuery = {
  actor: string;
  action: AuditAction | "";
  from: string;
  to: string;
  page: number;
};

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The /admin/audit filters from the URL (invalid values dropped). */
export function parseAuditQuery(params: URLSearchParams): AuditQuery {
  const action = params.get("action");
  const day = (name: string) => {
    const v = params.get(name) ?? "";
    return ISO_DAY.test(v) ? v : "";
  };
  const page = Number(params.get("page"));
  return {
    actor: (params.get("actor") ?? "").trim().slice(0, 100),
    action: isAuditAction(action) ? action : "",
    from: day("from"),
    to: day("to"),
    page: Number.isInteger(page) && page > 0 ? Math.min(page, 10_000) : 1,
  };
}

/**
 * English keys some writers of the log use (the retention job, API tokens, messages) and their
 * German names on the audit page and in its CSV; the stored entries stay as written.
 */
const DETAIL_KEYS: Record<string, string> = {
  requests: "anfragen",
  quarantine: "quarantaene",
  mode: "modus",
  appointments: "termine",
  mails: "emails",
  secrets: "geheimnisse",
  audit: "protokolleintraege",
  scopes: "berechtigungen",
  message: "nachricht",
  name: "name",
  events: "ereignisse",
};
const DETAIL_VALUES: Record<string, string> = { delete: "löschen", anonymize: "anonymisieren" };

/** An entry's details (JSON text) with German keys for display; other text stays as it is. */
export function germanAuditDetails(details: string | null): string | null {
  if (!details) return details;
  let parsed: unknown;
  try {
    parsed = JSON.parse(details);
  } catch {
    return details;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return details;
  const renamed = Object.entries(parsed).map(([key, value]) => {
    const name = DETAIL_KEYS[key] ?? key;
    return [
      name,
      name === "modus" && typeof value === "string" ? (DETAIL_VALUES[value] ?? value) : value,
    ];
  });
  return JSON.stringify(Object.fromEntries(renamed));
}
