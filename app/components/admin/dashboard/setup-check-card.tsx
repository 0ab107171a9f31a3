import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { CheckIcon, CloseIcon } from "~/components/ui/icons";
import { PostButton } from "~/components/ui/post-button";
import {
  ENV_HELP_HREF,
  SETUP_CHECK_TITLES,
  type SetupCheck,
  type SetupCheckItem,
} from "~/lib/setup-check";

/** Where an item's link goes, in words. */
const LINK_TEXT: Record<string, string> = {
  "/admin/account": "Zu den Account-Einstellungen",
  "/admin/users": "Zur Benutzerverwaltung",
  "/admin/settings/outbox": "Zum Postausgang",
  "/admin/settings#branding": "Zu Erscheinungsbild und Inhalte",
  "/admin/settings#mailIdentity": "Zu Absender und Pflichtangaben",
  "/admin/settings#accessibility": "Zur Erklärung zur Barrierefreiheit",
  [ENV_HELP_HREF]: "So setzen Sie Umgebungsvariablen",
};

const linkClass =
  "font-medium text-indigo-700 underline underline-offset-2 hover:text-indigo-900 dark:text-indigo-300 dark:hover:text-indigo-100";

/**
 * The go-live check on the dashboard (shown until every required item is green): each item with
 * what to do and where; the test mail is sent from here (a real form, works without JavaScript).
 */
export function SetupCheckCard({ check }: { check: SetupCheck }) {
  const required = check.items.filter((i) => !i.optional);
  const done = required.filter((i) => i.ok).length;
  return (
    <section id="go-live" aria-labelledby="go-live-heading" className="scroll-mt-24">
      <Card className="space-y-4 border-amber-300 p-5 dark:border-amber-700">
        <div>
          <h2 id="go-live-heading" className="text-lg font-semibold">
            Go-live-Check
          </h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            {done} von {required.length} Pflichtpunkten erledigt. Bringen Sie alle auf Grün, bevor
            die erste Anfrage eintrifft – sonst gehen E-Mails und Benachrichtigungen verloren.
          </p>
        </div>
        <ul className="divide-y divide-slate-200 dark:divide-slate-800">
          {check.items.map((item) => (
            <SetupCheckRow key={item.id} item={item} />
          ))}
        </ul>
        <div
          id="umgebungsvariablen"
          className="scroll-mt-24 rounded-lg bg-slate-50 p-4 text-sm text-slate-700 dark:bg-slate-800/60 dark:text-slate-200"
        >
          <h3 className="font-semibold">Umgebungsvariablen setzen</h3>
          <p className="mt-1">
            Auf Fly.io: <code className="font-mono">fly secrets set NAME=wert</code> – das Portal
            startet danach neu. Auf einem eigenen Server: in der Umgebung des Dienstes (z. B.
            systemd-Unit oder Container-Konfiguration) eintragen und den Dienst neu starten.
          </p>
        </div>
      </Card>
    </section>
  );
}

function SetupCheckRow({ item }: { item: SetupCheckItem }) {
  const tone = item.ok
    ? "bg-green-100 text-green-800 dark:bg-green-900/60 dark:text-green-200"
    : item.optional
      ? "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200"
      : "bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100";
  const state = item.ok ? "erledigt" : item.optional ? "optional, offen" : "offen";
  const linkText = LINK_TEXT[item.href];
  return (
    <li data-check={item.id} data-ok={item.ok} className="flex gap-3 py-3">
      <span
        className={`mt-0.5 inline-flex size-6 shrink-0 items-center justify-center rounded-full ${tone}`}
      >
        {item.ok ? <CheckIcon size={14} /> : <CloseIcon size={14} />}
      </span>
      <div className="min-w-0 flex-1 space-y-1">
        <p className="font-medium">
          {SETUP_CHECK_TITLES[item.id]}
          <span className="sr-only">: {state}</span>
          {item.optional ? (
            <span className="ml-2 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold text-slate-700 dark:bg-slate-800 dark:text-slate-200">
              optional
            </span>
          ) : null}
        </p>
        {/* Example values (an SMTP URL) are long words: they break instead of widening the page. */}
        <p className="text-sm wrap-anywhere text-slate-600 dark:text-slate-300">{item.message}</p>
        <div className="flex flex-wrap items-center gap-3 text-sm">
          {item.id === "testMail" ? (
            <PostButton
              action="/admin/dashboard"
              fields={{ intent: "test-mail" }}
              className={buttonClass(item.ok ? "secondary" : "primary", "sm")}
            >
              Test-E-Mail senden
            </PostButton>
          ) : null}
          {linkText && !item.ok ? (
            item.href.startsWith("/admin/dashboard#") ? (
              <a href={item.href} className={linkClass}>
                {linkText}
              </a>
            ) : (
              <Link to={item.href} className={linkClass}>
                {linkText}
              </Link>
            )
          ) : null}
        </div>
      </div>
    </li>
  );
}
