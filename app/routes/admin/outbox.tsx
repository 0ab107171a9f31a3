import { Link } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { OutboxList } from "~/components/admin/outbox/outbox-list";
import { WebhookDeliveries } from "~/components/admin/outbox/webhook-deliveries";
import { buttonClass } from "~/components/ui/button";
import { PostButton } from "~/components/ui/post-button";
import { formatDateTime } from "~/lib/format";
import { outboxStatusView } from "~/lib/outbox-status";
import { documentPath, requireAdmin } from "~/server/accounts/auth.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { parseId, readForm } from "~/server/http/http.server";
import { listOutbox, retryMail } from "~/server/mail/outbox.server";
import { maskedBody } from "~/server/mail/secrets.server";
import { env } from "~/server/platform/env.server";
import { deliveryViews, retryDelivery } from "~/server/webhooks/deliveries.server";
import type { Route } from "./+types/outbox";

export const meta: Route.MetaFunction = () => [{ title: "Postausgang" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return {
    smtp: Boolean(env().SMTP_URL),
    mails: listOutbox(200).map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      status: m.status,
      attempts: m.attempts,
      lastError: m.lastError,
      kind: m.kind,
      createdAt: m.createdAt.toISOString(),
      sentAt: m.sentAt?.toISOString() ?? null,
      // A reminder waits for its send-after time: shown as planned, not offered for an early send.
      scheduledFor:
        m.status === "pending" && m.attempts === 0 && m.nextAttemptAt.getTime() > Date.now()
          ? m.nextAttemptAt.toISOString()
          : null,
      // Token links never leave the server unmasked, even while the mail is still pending.
      preview: maskedBody(m.text),
    })),
    webhooks: deliveryViews(200),
  };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  const form = await readForm(request);
  const back = documentPath(request).split("?")[0];
  if (form.has("webhookDelivery")) {
    const delivery = parseId(String(form.get("webhookDelivery")));
    return delivery && retryDelivery(delivery)
      ? redirectWithToast(back, { type: "success", message: "Webhook wird erneut zugestellt." })
      : redirectWithToast(back, {
          type: "error",
          message: "Dieser Webhook kann nicht erneut zugestellt werden.",
        });
  }
  const id = parseId(String(form.get("id") ?? ""));
  if (!id || !retryMail(id))
    return redirectWithToast(back, {
      type: "error",
      message: "Diese E-Mail kann nicht erneut gesendet werden.",
    });
  return redirectWithToast(back, { type: "success", message: "E-Mail wird erneut gesendet." });
}

export default function OutboxPage({ loaderData }: Route.ComponentProps) {
  const { mails, smtp } = loaderData;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Postausgang ({mails.length})</h1>
        <Link to="/admin/settings" className={buttonClass("secondary", "sm")}>
          Zurück zu den Einstellungen
        </Link>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {smtp
          ? "E-Mails werden über den konfigurierten SMTP-Server versendet; fehlgeschlagene Versuche werden automatisch wiederholt."
          : "Kein SMTP-Server konfiguriert (SMTP_URL): E-Mails werden hier gesammelt und können gelesen werden."}
      </p>
      <OutboxList
        empty="Noch keine E-Mails."
        entries={mails.map((mail) => ({
          key: mail.id,
          status: outboxStatusView(mail.status, mail.attempts, "Gesendet"),
          error: mail.lastError,
          title: mail.subject,
          to: `An: ${mail.to}`,
          meta: [
            `Erstellt ${formatDateTime(mail.createdAt)}`,
            mail.sentAt ? ` · gesendet ${formatDateTime(mail.sentAt)}` : "",
            mail.scheduledFor ? ` · geplant für ${formatDateTime(mail.scheduledFor)}` : "",
          ].join(""),
          details: (
            <div className="mt-3 space-y-3">
              {mail.lastError ? (
                <p className="text-sm text-red-700 dark:text-red-300">
                  Letzter Fehler ({mail.attempts} Versuche): {mail.lastError}
                </p>
              ) : null}
              <pre className="max-h-96 overflow-auto whitespace-pre-wrap rounded-lg bg-slate-50 p-3 font-sans text-sm dark:bg-slate-800">
                {mail.preview}
              </pre>
              {mail.status !== "sent" && !mail.scheduledFor && smtp ? (
                <PostButton fields={{ id: mail.id }}>Erneut senden</PostButton>
              ) : null}
            </div>
          ),
        }))}
      />
      <WebhookDeliveries deliveries={loaderData.webhooks} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Abrufen der E-Mails" />;
}
