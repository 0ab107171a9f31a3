import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import {
  deleteAdminMessage,
  deleteInvitationMessage,
  resetLinkMailedMessage,
  type UsersActionResult,
} from "~/lib/admin-users";
import { InviteSchema } from "~/lib/auth-forms";
import { formFlag } from "~/lib/form-flag";
import { TWO_FACTOR_MESSAGES } from "~/lib/two-factor";
import {
  AdminActiveSchema,
  deleteAdmin,
  getAdminById,
  otherActiveAdmins,
  setAdminActive,
} from "~/server/accounts/admins.server";
import type { SessionAdmin } from "~/server/accounts/auth.server";
import {
  activateInvitation,
  createInvitation,
  deleteInvitation,
  invitationMessage,
  listInvitations,
  resendInvitation,
} from "~/server/accounts/invitations.server";
import { issueResetLink } from "~/server/accounts/reset-link.server";
import { stepUpStep } from "~/server/accounts/step-up-guard.server";
import { resetTwoFactor } from "~/server/accounts/two-factor/two-factor.server";
import { requireConfirmation } from "~/server/http/confirm.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { parseId } from "~/server/http/http.server";
import { mailConfigured } from "~/server/mail/outbox.server";
import { invalid } from "~/server/platform/result.server";

const done = (message: string) => redirectWithToast("/admin/users", { type: "success", message });

/**
 * Form posts of /admin/users: invite, then per admin or invitation the row's intents. Power over
 * another admin (toggle, delete, reset link, 2FA reset, direct activation) asks for the step-up
 * after the confirmation (ADR 315): a server step that keeps the form.
 */
export async function handleUsersAction(formData: FormData, me: SessionAdmin) {
  const intent = String(formData.get("intent") ?? "");
  const reply = (body: UsersActionResult, status = 200) => data(body, { status });

  if (intent === "invite") {
    const submission = parseWithZod(formData, { schema: InviteSchema });
    if (submission.status !== "success") {
      return reply({ intent, result: submission.reply() }, 400);
    }
    const created = createInvitation(submission.value.email, me.id);
    if (!created.ok) {
      return reply(
        { intent, result: submission.reply({ fieldErrors: { email: [created.error] } }) },
        created.status,
      );
    }
    const email = created.invitation.email;
    return reply({
      intent,
      result: submission.reply({ resetForm: true }),
      ...(created.mailed
        ? { message: invitationMessage(email, created) }
        : { invitationLink: { email, link: created.link } }),
    });
  }

  const id = parseId(String(formData.get("id") ?? ""));
  if (!id) return reply({ intent, error: "Eintrag nicht gefunden." }, 404);

  switch (intent) {
    case "toggle": {
      const parsed = AdminActiveSchema.safeParse({ activate: formFlag(formData.get("activate")) });
      if (!parsed.success) return reply({ intent, error: invalid(parsed.error).error }, 400);
      const activate = parsed.data.activate ?? false;
      const target = getAdminById(id);
      if (target && id !== me.id) {
        const what = `${target.username} ${activate ? "aktivieren" : "deaktivieren"}`;
        const step = await stepUpStep(formData, me, what);
        if (step) return step;
      }
      const result = setAdminActive(me.id, id, activate);
      if (!result.ok) {
        return reply(
          { intent, error: result.error || "Fehler beim Ändern des Admin-Status" },
          result.status,
        );
      }
      return done(
        `${result.admin.username} wurde ${result.admin.is_active ? "aktiviert" : "deaktiviert"}.`,
      );
    }
    case "delete": {
      const target = getAdminById(id);
      if (!target) return reply({ intent, error: "Admin nicht gefunden." }, 404);
      const step = requireConfirmation(formData, {
        // The spec's confirm button reads 'Bestätigen' (product-spec, "Generic modal system").
        title: "Admin löschen",
        message: deleteAdminMessage(target.username, otherActiveAdmins(id)),
      });
      if (step) return step;
      if (id !== me.id) {
        const proof = await stepUpStep(formData, me, `Admin löschen: ${target.username}`);
        if (proof) return proof;
      }
      const result = deleteAdmin(me.id, id);
      if (!result.ok) return reply({ intent, error: result.error }, result.status);
      return done(
        `${target.username} wurde gelöscht. ${result.transferredAssignments} Zuweisung(en) und ${result.transferredInvitations} Einladung(en) wurden auf Sie übertragen.`,
      );
    }
    case "reset-link": {
      // For another admin only: one's own password is changed under "Passwort ändern".
      const target = getAdminById(id);
      if (!target || id === me.id) return reply({ intent, error: "Admin nicht gefunden." }, 404);
      const step = await stepUpStep(
        formData,
        me,
        `Passwort-Reset-Link erzeugen: ${target.username}`,
      );
      if (step) return step;
      const result = issueResetLink(id, me);
      if (!result.ok) return reply({ intent, error: result.error }, result.status);
      // With SMTP the link goes to the admin it is for, never to the actor (ADR 315).
      if (result.mailed) return done(resetLinkMailedMessage(result));
      return reply({ intent, resetLink: { username: result.username, link: result.link } });
    }
    case "reset-2fa": {
      // A lost phone: another admin's 2FA off (audited, mailed); one's own is switched off under
      // "Account-Einstellungen" with the password and a code.
      const target = getAdminById(id);
      if (!target || id === me.id) return reply({ intent, error: "Admin nicht gefunden." }, 404);
      const step = requireConfirmation(formData, {
        title: "Zwei-Faktor-Anmeldung zurücksetzen",
        confirmLabel: "Zurücksetzen",
        message: TWO_FACTOR_MESSAGES.resetConfirm(target.username),
      });
      if (step) return step;
      const proof = await stepUpStep(formData, me, `2FA zurücksetzen: ${target.username}`);
      if (proof) return proof;
      const result = resetTwoFactor(id, me);
      if (!result.ok) return reply({ intent, error: result.error }, result.status);
      return done(TWO_FACTOR_MESSAGES.resetDone(result.username));
    }
    case "resend-invitation": {
      const result = resendInvitation(id, me.id);
      if (!result.ok) {
        return reply(
          { intent, error: result.error || "Fehler beim erneuten Senden der Einladung" },
          result.status,
        );
      }
      if (!result.mailed)
        return reply({ intent, invitationLink: { email: result.email, link: result.link } });
      return done(invitationMessage(result.email, result, true));
    }
    case "delete-invitation": {
      const invitation = listInvitations().find((i) => i.id === id);
      if (!invitation) return reply({ intent, error: "Fehler beim Löschen der Einladung" }, 404);
      const step = requireConfirmation(formData, {
        title: "Einladung löschen",
        message: deleteInvitationMessage(invitation.email),
      });
      if (step) return step;
      const result = deleteInvitation(id, me.id);
      if (!result.ok)
        return reply({ intent, error: "Fehler beim Löschen der Einladung" }, result.status);
      return done("Einladung gelöscht.");
    }
    case "activate-invitation": {
      const invitation = listInvitations().find((i) => i.id === id);
      if (invitation) {
        const step = await stepUpStep(formData, me, `Direkt freischalten: ${invitation.email}`);
        if (step) return step;
      }
      const result = await activateInvitation(id, me.id);
      if (!result.ok) {
        return reply(
          { intent, error: result.error || "Fehler beim direkten Freischalten" },
          result.status,
        );
      }
      return reply({
        intent,
        message: `Admin ${result.adminData.username} wurde direkt freigeschaltet.`,
        adminData: result.adminData,
        // Without SMTP the activation mail only waits in the outbox: the page says so.
        activationMailed: mailConfigured(),
      });
    }
    default:
      return reply({ intent, error: "Unbekannte Aktion." }, 400);
  }
}
