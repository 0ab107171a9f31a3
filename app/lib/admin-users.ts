import type { SubmissionResult } from "@conform-to/react";

// Texts and the action answer of /admin/users, shared by the page and its form handler.

/** What the users page's action answers (besides redirects and confirmation steps). */
export type UsersActionResult = {
  intent: string;
  result?: SubmissionResult<string[]>;
  message?: string;
  error?: string;
  adminData?: { username: string; password: string; email: string };
  /** Whether the activated admin's mail (a link to set their own password) can go out (SMTP). */
  activationMailed?: boolean;
  /** Without SMTP: the invitation link, shown once to the inviting admin. */
  invitationLink?: { email: string; link: string };
  /** "Passwort-Reset-Link erzeugen": the link for another admin, shown once. */
  resetLink?: { username: string; link: string };
};

/** A reset link for another admin went to their address (with SMTP, ADR 315). */
export const resetLinkMailedMessage = (to: { username: string; email: string }) =>
  `Ein Link zum Zurücksetzen des Passworts wurde per E-Mail an ${to.username} (${to.email}) gesendet. Er ist eine Stunde gültig.`;

/** The delete confirmation names the admins who stay active (same text with and without JS). */
export function deleteAdminMessage(username: string, remaining: string[]) {
  return `Möchten Sie den Admin „${username}“ wirklich löschen? Seine Zuweisungen und Einladungen werden auf Sie übertragen, und er wird per E-Mail benachrichtigt.\nVerbleibende aktive Admins: ${remaining.length ? remaining.join(", ") : "keine"}.`;
}
export const deleteInvitationMessage = (email: string) =>
  `Möchten Sie die Einladung an ${email} wirklich löschen? Der Einladungslink funktioniert danach nicht mehr.`;

/**
 * An account that awaits activation: inactive and never active (a registration from an
 * invitation). A deactivated colleague was active once — `activatedAt` stays set through a
 * deactivation (ADR 358), also for one deactivated before a first login; having logged in shows it
 * too. Counted in the "Benutzer" tab's badge; its login is told to wait, not that it is off.
 */
export function awaitsActivation(admin: {
  isActive: boolean;
  activatedAt: Date | null;
  lastLogin: Date | null;
}) {
  return !admin.isActive && !admin.activatedAt && !admin.lastLogin;
}

/** "1 Konto wartet" / "2 Konten warten" auf Freischaltung. */
export function awaitingActivationText(count: number) {
  return count === 1
    ? "1 Konto wartet auf Freischaltung"
    : `${count} Konten warten auf Freischaltung`;
}
