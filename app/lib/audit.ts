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
  "session-ended",
  "api-token-created",
  "api-token-revoked",
  "message-sent",
  "calendar-feed-created",
  "calendar-feed-revoked",
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
  "session-ended": "Sitzung abgemeldet",
  "api-token-created": "API-Zugang erstellt",
  "api-token-revoked": "API-Zugang widerrufen",
  "message-sent": "Nachricht an den Kunden gesendet",
  "calendar-feed-created": "Kalender-Abo-Link erzeugt",
  "calendar-feed-revoked": "Kalender-Abo-Link widerrufen",
};

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
