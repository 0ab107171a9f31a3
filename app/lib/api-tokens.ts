import { z } from "zod";

// Scoped API tokens for integrations (ADR 260): the fixed list of scopes, the schema of
// the create form (page with Conform, `POST /api/admin/api-tokens`) and the German messages.

export const API_SCOPES = [
  "requests:read",
  "requests:write",
  "appointments:read",
  "appointments:write",
  "codes:read",
  "codes:write",
  "messages:write",
  "stages:write",
  "trials:write",
  "notes:read",
  "notes:write",
  "followups:read",
  "followups:write",
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_SCOPE_LABELS: Record<ApiScope, string> = {
  "requests:read": "Anfragen lesen (auch Anhänge)",
  "requests:write": "Anfragen bearbeiten (Status, Zuweisung, KI-Vorbereitung)",
  "appointments:read": "Termine lesen",
  "appointments:write": "Termine absagen und aktualisieren",
  "codes:read": "Affiliate-Codes lesen",
  "codes:write": "Affiliate-Codes anlegen, ändern und löschen",
  "messages:write": "Nachrichten an Kunden senden",
  "stages:write": "Anfragen in eine andere Phase verschieben (Board)",
  "trials:write": "Testversionen an Kunden liefern",
  "notes:read": "Interne Notizen lesen",
  "notes:write": "Interne Notizen schreiben, ändern und löschen",
  "followups:read": "Wiedervorlagen und Aufgaben lesen",
  "followups:write": "Wiedervorlagen setzen und erledigen",
};

export const isApiScope = (value: unknown): value is ApiScope =>
  typeof value === "string" && (API_SCOPES as readonly string[]).includes(value);

/** Every API token starts with this, so a request shows at once which kind of Bearer it carries. */
export const API_TOKEN_PREFIX = "apt_";

export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;

export const API_TOKEN_MESSAGES = {
  nameRequired: "Bitte geben Sie einen Namen ein.",
  nameTooLong: "Der Name darf höchstens 80 Zeichen lang sein.",
  scopesRequired: "Bitte wählen Sie mindestens eine Berechtigung.",
  scopeUnknown: "Unbekannte Berechtigung.",
  expiryInvalid: "Die Gültigkeit muss zwischen 1 und 3650 Tagen liegen.",
  proofRequired: "Bitte geben Sie Ihr Passwort oder einen aktuellen Code ein.",
  passwordWrong: "Das Passwort ist falsch.",
  codeWrong: "Der Code ist ungültig oder wurde bereits verwendet.",
  created:
    "API-Zugang erstellt. Kopieren Sie den Schlüssel jetzt – er wird nur dieses eine Mal angezeigt.",
  revoked: (name: string) => `Der API-Zugang „${name}“ wurde widerrufen.`,
  revokeTitle: "API-Zugang widerrufen",
  revokeConfirm: (name?: string) =>
    `${name ? `Den API-Zugang „${name}“` : "Diesen API-Zugang"} widerrufen? Integrationen, die ihn benutzen, erhalten danach keinen Zugriff mehr. Das lässt sich nicht rückgängig machen.`,
  notFound: "API-Zugang nicht gefunden.",
  /** 401: unknown, revoked or expired. */
  invalid: "Der API-Zugang ist ungültig, widerrufen oder abgelaufen.",
  /** 401: a route a token never reaches (pages, login, account, users, settings, tokens, exports). */
  sessionOnly: "Dieser Aufruf ist mit einem API-Zugang nicht möglich. Bitte melden Sie sich an.",
  /** 403: a route within the list, but not within this token's scopes. */
  outOfScope: (scope: string) =>
    `Diesem API-Zugang fehlt die Berechtigung „${scope}“ für diesen Aufruf.`,
} as const;

const scopes = z
  .array(z.string(), { error: API_TOKEN_MESSAGES.scopesRequired })
  .min(1, API_TOKEN_MESSAGES.scopesRequired)
  .max(API_SCOPES.length)
  .refine((list) => list.every(isApiScope), API_TOKEN_MESSAGES.scopeUnknown)
  .transform((list) => [...new Set(list)] as ApiScope[]);

const name = z
  .string({ error: API_TOKEN_MESSAGES.nameRequired })
  .trim()
  .min(1, API_TOKEN_MESSAGES.nameRequired)
  .max(80, API_TOKEN_MESSAGES.nameTooLong);

const expiresInDays = z.coerce
  .number({ error: API_TOKEN_MESSAGES.expiryInvalid })
  .int(API_TOKEN_MESSAGES.expiryInvalid)
  .min(1, API_TOKEN_MESSAGES.expiryInvalid)
  .max(3650, API_TOKEN_MESSAGES.expiryInvalid)
  .optional();

const proof = z.string().max(256).optional();

/**
 * A new token: name, scopes, optional expiry in days, and the proof that the admin is at the
 * keyboard — the password or a current 2FA code.
 */
export const ApiTokenCreateSchema = z
  .object({ name, scopes, expiresInDays, password: proof, code: proof })
  .refine((v) => !!v.password || !!v.code, {
    message: API_TOKEN_MESSAGES.proofRequired,
    path: ["password"],
  });
export type ApiTokenCreateInput = z.infer<typeof ApiTokenCreateSchema>;

/** What the list shows (never the token). */
export type ApiTokenJson = {
  id: number;
  name: string;
  scopes: ApiScope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
};

/** A session as `GET /api/admin/account/sessions` and the "Sicherheit" section show it. */
export type SessionJson = {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  network: string | null;
  current: boolean;
};
