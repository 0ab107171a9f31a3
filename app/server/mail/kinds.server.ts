import type { MailAudience } from "~/lib/mail-signature";

/**
 * Every kind of mail the portal sends, with its reader (ADR 325): visitors get the "du" sign-off,
 * admins the "Sie" one; both get the same signature block with the legal details. `queueMail`
 * takes only these kinds, so a new kind of mail is a new entry here — and the registry tests
 * (`kinds.server.test.ts`, `tests/integration/mail-identity-kinds.test.ts`) then ask for its
 * signature at the SMTP server.
 */
export const MAIL_KINDS = {
  // Visitors (the lead)
  "request-receipt": "visitor",
  "booking-confirmation": "visitor",
  "booking-rescheduled": "visitor",
  "booking-updated": "visitor",
  "booking-reminder": "visitor",
  "booking-cancelled": "visitor",
  message: "visitor",
  trial: "visitor",
  // Admins and notification recipients
  "new-request": "admin",
  "reply-notice": "admin",
  "booking-notice": "admin",
  "morning-digest": "admin",
  "note-mention": "admin",
  "quarantine-notice": "admin",
  "setup-test-mail": "admin",
  invitation: "admin",
  "registration-pending": "admin",
  "account-activated": "admin",
  "account-deactivated": "admin",
  "account-reactivated": "admin",
  "account-deleted": "admin",
  "account-email-confirm": "admin",
  "account-email-notice": "admin",
  "password-reset": "admin",
  "password-reset-notice": "admin",
  "reset-link": "admin",
  "reset-link-notice": "admin",
  "login-locked": "admin",
  "two-factor-notice": "admin",
  "two-factor-rule": "admin",
  "api-token-notice": "admin",
} as const satisfies Record<string, MailAudience>;

export type MailKind = keyof typeof MAIL_KINDS;

export const isMailKind = (kind: string): kind is MailKind => Object.hasOwn(MAIL_KINDS, kind);
