import { useEffect, useRef } from "react";
import { useNavigation } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { StepUpStep } from "~/components/admin/step-up-step";
import {
  ActivatedCredentials,
  InvitationLinkNotice,
  ResetLinkNotice,
} from "~/components/admin/users/one-time-notices";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmAction, ConfirmationStep } from "~/components/ui/confirm-action";
import { Alert } from "~/components/ui/field";
import { ConformForm, Field, useConformForm } from "~/components/ui/form";
import { PostButton } from "~/components/ui/post-button";
import { ScrollRegion } from "~/components/ui/scroll-region";
import { Table } from "~/components/ui/table";
import {
  awaitingActivationText,
  deleteAdminMessage,
  deleteInvitationMessage,
} from "~/lib/admin-users";
import { InviteSchema } from "~/lib/auth-forms";
import { formatDateTime } from "~/lib/format";
import { TWO_FACTOR_MESSAGES } from "~/lib/two-factor";
import { awaitingActivationIds } from "~/server/accounts/activation.server";
import { listAdmins } from "~/server/accounts/admins.server";
import { requireAdmin } from "~/server/accounts/auth.server";
import { listInvitations } from "~/server/accounts/invitations.server";
import { twoFactorAdminIds } from "~/server/accounts/two-factor/two-factor.server";
import { readForm } from "~/server/http/http.server";
import type { Route } from "./+types/users";
import { handleUsersAction } from "./users.server";

export const meta: Route.MetaFunction = () => [{ title: "Benutzer" }];

export async function loader({ request }: Route.LoaderArgs) {
  const me = await requireAdmin(request);
  return {
    meId: me.id,
    admins: listAdmins(),
    // Beside the admins, whose shape is the API's (GET /api/admin/users): a deactivated account
    // that never logged in awaits nothing (ADR 358).
    awaitingActivation: awaitingActivationIds(),
    twoFactor: [...twoFactorAdminIds()],
    invitations: listInvitations(),
  };
}

export async function action({ request }: Route.ActionArgs) {
  const me = await requireAdmin(request);
  return handleUsersAction(await readForm(request), me);
}

const formatDate = (iso: string | null) => (iso ? formatDateTime(iso) : "Nie");

const th =
  "px-4 py-3 text-left text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400";
const td = "px-4 py-3 align-middle";
/** Below `sm` the rows stack as cards: one cell per line, labelled with its column (`data-label`). */
const stacked =
  "max-sm:block max-sm:[&_thead]:sr-only max-sm:[&_tbody]:block max-sm:[&_tr]:block max-sm:[&_tr]:px-2 max-sm:[&_tr]:py-3 max-sm:[&_td]:block max-sm:[&_td]:py-1 max-sm:[&_td]:whitespace-normal max-sm:[&_td]:break-words max-sm:[&_td]:before:block max-sm:[&_td]:before:text-xs max-sm:[&_td]:before:font-semibold max-sm:[&_td]:before:text-slate-500 max-sm:[&_td]:before:content-[attr(data-label)] dark:max-sm:[&_td]:before:text-slate-400";
/** The horizontal scroll region of a table from `sm` up (keyboard-scrollable, named). */
const scrollRegion =
  "mt-3 sm:overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-500";
const menuItem =
  "block w-full rounded-md px-3 py-2 text-left text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:opacity-50 dark:hover:bg-slate-800";

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const result = actionData && "intent" in actionData ? actionData : undefined;
  const inviteResult = result?.intent === "invite" ? result.result : undefined;
  const [form, fields] = useConformForm(InviteSchema, inviteResult, { id: "invite" });
  const busy = navigation.state === "submitting";
  // The pressed "Aktivieren"/"Deaktivieren" is disabled while the post runs and loses the focus:
  // once the page is idle again, the row's toggle (now the other one) takes it back.
  const toggled = useRef<string | null>(null);
  useEffect(() => {
    if (navigation.state !== "idle" || !toggled.current) return;
    const id = toggled.current;
    toggled.current = null;
    const active = document.activeElement;
    if (active && active !== document.body) return;
    document.querySelector<HTMLElement>(`[data-toggle-admin="${id}"]`)?.focus();
  }, [navigation.state]);
  const { meId, admins, invitations } = loaderData;
  const withTwoFactor = new Set(loaderData.twoFactor);
  const awaitingIds = new Set(loaderData.awaitingActivation);
  const awaitsActivation = (admin: { id: number }) => awaitingIds.has(admin.id);
  const awaiting = admins.filter(awaitsActivation);

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Benutzer</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Admins verwalten und neue Admins per E-Mail einladen.
        </p>
      </div>

      <ConfirmationStep data={actionData} />
      <StepUpStep data={actionData} />
      <ActionResult result={result}>
        {result?.message ? <Alert tone="success">{result.message}</Alert> : null}
        {result?.error ? <Alert>{result.error}</Alert> : null}
        {result?.adminData ? (
          <ActivatedCredentials
            adminData={result.adminData}
            mailed={result.activationMailed !== false}
          />
        ) : null}
        {result?.invitationLink ? <InvitationLinkNotice {...result.invitationLink} /> : null}
        {result?.resetLink ? <ResetLinkNotice {...result.resetLink} /> : null}
      </ActionResult>

      {awaiting.length ? (
        <Alert tone="warning">
          <span data-testid="awaiting-activation-notice">
            {awaitingActivationText(awaiting.length)}: {awaiting.map((a) => a.username).join(", ")}.
            Prüfen Sie die Angaben und klicken Sie in der Tabelle auf „Aktivieren“.
          </span>
        </Alert>
      ) : null}

      <Card className="p-6">
        <h2 className="text-lg font-semibold">Admin einladen</h2>
        <ConformForm form={form} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
          <input type="hidden" name="intent" value="invite" />
          <div className="flex-1">
            <Field
              meta={fields.email}
              label="E-Mail-Adresse"
              type="email"
              placeholder="name@beispiel.de"
              required
            />
          </div>
          <Button type="submit" className="sm:mt-6" disabled={busy}>
            Einladung senden
          </Button>
        </ConformForm>
      </Card>

      <Card className="overflow-hidden">
        <h2 className="px-6 pt-5 text-lg font-semibold">Admins ({admins.length})</h2>
        <ScrollRegion className={scrollRegion} label="Admins-Tabelle">
          <Table
            look="shaded"
            className={stacked}
            columns={["Benutzername", "E-Mail", "Status", "Letzter Login", "Aktionen"]}
            cellClassName={th}
          >
            {admins.map((admin) => (
              <tr key={admin.id} data-testid={`admin-row-${admin.username}`}>
                <td className={`${td} font-medium`} data-label="Benutzername">
                  {admin.username}
                  {admin.id === meId ? (
                    <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">(Sie)</span>
                  ) : null}
                </td>
                <td className={`${td} whitespace-nowrap`} data-label="E-Mail">
                  {admin.email}
                </td>
                <td className={td} data-label="Status">
                  <span
                    className={
                      admin.is_active
                        ? "rounded-full bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-800 dark:bg-green-950 dark:text-green-300"
                        : "rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-300"
                    }
                  >
                    {admin.is_active ? "Aktiv" : "Inaktiv"}
                  </span>
                  {withTwoFactor.has(admin.id) ? (
                    <span className="mt-1 block text-xs font-medium text-slate-600 dark:text-slate-300">
                      Zwei-Faktor aktiv
                    </span>
                  ) : null}
                  {awaitsActivation(admin) ? (
                    <span className="mt-1 block text-xs font-medium text-amber-800 dark:text-amber-300">
                      Wartet auf Freischaltung
                    </span>
                  ) : null}
                </td>
                <td className={`${td} whitespace-nowrap`} data-label="Letzter Login">
                  {formatDate(admin.last_login)}
                </td>
                <td className={td} data-label="Aktionen">
                  {admin.id === meId ? (
                    <span className="text-xs text-slate-500 dark:text-slate-400">–</span>
                  ) : (
                    <div className="flex flex-wrap gap-2">
                      <PostButton
                        fields={{
                          intent: "toggle",
                          id: admin.id,
                          activate: admin.is_active ? "0" : "1",
                        }}
                        disabled={busy}
                        data-toggle-admin={admin.id}
                        onClick={() => {
                          toggled.current = String(admin.id);
                        }}
                        aria-label={`${admin.username} ${admin.is_active ? "deaktivieren" : "aktivieren"}`}
                      >
                        {admin.is_active ? "Deaktivieren" : "Aktivieren"}
                      </PostButton>
                      <PostButton
                        fields={{ intent: "reset-link", id: admin.id }}
                        disabled={busy}
                        aria-label={`Passwort-Reset-Link erzeugen: ${admin.username}`}
                      >
                        Passwort-Reset-Link erzeugen
                      </PostButton>
                      {withTwoFactor.has(admin.id) ? (
                        <ConfirmAction
                          fields={{ intent: "reset-2fa", id: String(admin.id) }}
                          title="Zwei-Faktor-Anmeldung zurücksetzen"
                          label="2FA zurücksetzen"
                          confirmLabel="Zurücksetzen"
                          aria-label={`Zwei-Faktor-Anmeldung zurücksetzen: ${admin.username}`}
                          message={TWO_FACTOR_MESSAGES.resetConfirm(admin.username)}
                        />
                      ) : null}
                      <ConfirmAction
                        fields={{ intent: "delete", id: String(admin.id) }}
                        title="Admin löschen"
                        label="Löschen"
                        aria-label={`${admin.username} löschen`}
                        message={deleteAdminMessage(
                          admin.username,
                          admins
                            .filter((a) => a.is_active && a.id !== admin.id)
                            .map((a) => a.username)
                            .sort((a, b) => a.localeCompare(b)),
                        )}
                      />
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </Table>
        </ScrollRegion>
      </Card>

      <Card className="overflow-visible">
        <h2 className="px-6 pt-5 text-lg font-semibold">
          Ausstehende Einladungen ({invitations.length})
        </h2>
        {invitations.length === 0 ? (
          <p className="px-6 py-5 text-sm text-slate-600 dark:text-slate-300">
            Keine ausstehenden Einladungen.
          </p>
        ) : (
          // From sm to md the table scrolls sideways, which would clip the open "Aktionen" menu: room below only while it is open.
          <ScrollRegion
            className={`${scrollRegion} sm:has-[details[open]]:pb-40 md:overflow-visible md:has-[details[open]]:pb-0`}
            label="Einladungen-Tabelle"
          >
            <Table
              look="shaded"
              className={stacked}
              columns={["E-Mail", "Eingeladen von", "Eingeladen am", "Läuft ab", "Aktionen"]}
              cellClassName={th}
            >
              {invitations.map((inv) => (
                <tr key={inv.id} data-testid={`invitation-row-${inv.email}`}>
                  <td className={`${td} whitespace-nowrap`} data-label="E-Mail">
                    {inv.email}
                  </td>
                  <td className={td} data-label="Eingeladen von">
                    {inv.invited_by ?? "Unbekannt"}
                  </td>
                  <td className={`${td} whitespace-nowrap`} data-label="Eingeladen am">
                    {formatDate(inv.created_at)}
                  </td>
                  <td className={`${td} whitespace-nowrap`} data-label="Läuft ab">
                    {formatDate(inv.expires_at)}
                    {inv.expired ? (
                      <span className="ml-2 text-xs font-semibold text-red-600">abgelaufen</span>
                    ) : null}
                  </td>
                  <td className={td} data-label="Aktionen">
                    <details className="relative">
                      <summary className="cursor-pointer list-none whitespace-nowrap rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:border-slate-600 dark:hover:bg-slate-800">
                        Aktionen <span aria-hidden="true">▾</span>
                      </summary>
                      <div className="absolute right-0 z-20 mt-1 w-56 rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
                        {(
                          [
                            ["resend-invitation", "Erneut senden"],
                            ["activate-invitation", "Direkt freischalten"],
                          ] as const
                        ).map(([intent, label]) => (
                          <PostButton
                            key={intent}
                            fields={{ intent, id: inv.id }}
                            disabled={busy}
                            className={menuItem}
                          >
                            {label}
                          </PostButton>
                        ))}
                        <ConfirmAction
                          fields={{ intent: "delete-invitation", id: String(inv.id) }}
                          title="Einladung löschen"
                          label="Löschen"
                          aria-label={`Einladung an ${inv.email} löschen`}
                          className={`${menuItem} text-red-600 dark:text-red-400`}
                          message={deleteInvitationMessage(inv.email)}
                        />
                      </div>
                    </details>
                  </td>
                </tr>
              ))}
            </Table>
          </ScrollRegion>
        )}
      </Card>
    </div>
  );
}

/**
 * The answer of a row's action (credentials, a link handed out once, an error) sits above the
 * tables: with JavaScript the page does not reload, so it takes the focus and comes into view.
 */
function ActionResult({ result, children }: { result: unknown; children: React.ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const hasResult = Boolean(
    result &&
      typeof result === "object" &&
      ["message", "error", "adminData", "invitationLink", "resetLink"].some(
        (key) => (result as Record<string, unknown>)[key],
      ),
  );
  // Each new answer (also the same kind again) moves the focus.
  const shown = hasResult ? result : null;
  useEffect(() => {
    if (shown) ref.current?.focus();
  }, [shown]);
  if (!hasResult) return null;
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className="space-y-3 scroll-mt-4 outline-none"
      data-users-result=""
    >
      {children}
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Abrufen der Admins" back="reload" />;
}
