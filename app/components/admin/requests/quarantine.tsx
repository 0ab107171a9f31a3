import { buttonClass } from "~/components/ui/button";
import { ConfirmAction } from "~/components/ui/confirm-action";
import { PostButton } from "~/components/ui/post-button";
import { formatRequestId } from "~/lib/format";

/** The held request (its id and name) and the URL its decisions post to. */
type QuarantineProps = { id: number; name: string; action: string };

/**
 * A quarantined request's two decisions (ADR 252): "Freigeben" runs the new-request flow once
 * (notification, webhooks, receipt, AI summary, booking mails); "Löschen" erases it like any
 * request (asks first). Plain forms: the same with and without JavaScript.
 */
export function QuarantineActions({ id, name, action }: QuarantineProps) {
  const label = `Anfrage #${formatRequestId(id)} von ${name}`;
  return (
    <>
      <PostButton
        action={action}
        fields={{ intent: "release", id }}
        className={buttonClass("primary", "sm")}
        aria-label={`${label} freigeben`}
      >
        Freigeben
      </PostButton>
      <ConfirmAction
        action={action}
        fields={{ intent: "delete", id: String(id) }}
        title="Anfrage löschen"
        message={`Möchten Sie die ${label} wirklich endgültig löschen? Alle Daten, Dateien, Termine und E-Mails dazu werden entfernt.`}
        label="Löschen"
        aria-label={`${label} löschen`}
      />
    </>
  );
}

/** What the "Prüfen" view is about, above its list. */
export function QuarantineIntro({ days }: { days: number }) {
  return (
    <p className="max-w-3xl text-sm text-slate-600 dark:text-slate-300" data-quarantine-intro="">
      Diese Anfragen kamen ohne gültigen Spam-Schutz oder passten zur Sperrliste. Sie haben noch
      keine Benachrichtigung, keinen Webhook, keine Eingangsbestätigung und keine KI-Zusammenfassung
      ausgelöst. Geben Sie echte Anfragen frei – das holt alles einmal nach – oder löschen Sie sie.
      Nach {days} Tagen werden sie automatisch gelöscht.
    </p>
  );
}

/** In the full-screen view of a quarantined request: why it is held and the two decisions. */
export function QuarantineNotice({ id, name, action }: QuarantineProps) {
  return (
    <div
      className="flex flex-wrap items-center gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900 dark:border-amber-900 dark:bg-amber-950 dark:text-amber-100"
      data-quarantine-notice=""
    >
      <p className="min-w-0 flex-1">
        <strong>Wartet auf Prüfung.</strong> Diese Anfrage steht unter „Prüfen“: Sie hat noch nichts
        ausgelöst.
      </p>
      <QuarantineActions id={id} name={name} action={action} />
    </div>
  );
}
