import { Link } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { buttonClass } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmAction, ConfirmationStep } from "~/components/ui/confirm-action";
import { Pagination } from "~/components/ui/pagination";
import { ACCESSIBILITY_FEEDBACK_ADMIN_PATH, ACCESSIBILITY_PATH } from "~/lib/accessibility";
import { formatDateTime } from "~/lib/format";
import { deleteFeedback, listFeedback } from "~/server/accessibility/feedback.server";
import { requireAdmin } from "~/server/accounts/auth.server";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { requireConfirmation } from "~/server/http/confirm.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { parseId, readForm } from "~/server/http/http.server";
import type { Route } from "./+types/accessibility-feedback";

export const meta: Route.MetaFunction = () => [{ title: "Rückmeldungen zur Barrierefreiheit" }];

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  const page = Number(new URL(request.url).searchParams.get("seite")) || 1;
  const { accessibility } = getConfiguration();
  return {
    ...listFeedback(page),
    keptDays: accessibility.feedbackDays,
    published: accessibility.publish,
  };
}

/** "Löschen" of one entry: asked once (with JS by the modal, without by a confirmation step). */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  const id = parseId(String(form.get("id") ?? ""));
  const back = ACCESSIBILITY_FEEDBACK_ADMIN_PATH;
  if (!id)
    return redirectWithToast(back, { type: "error", message: "Rückmeldung nicht gefunden." });
  const step = requireConfirmation(form, {
    title: "Rückmeldung löschen",
    message: `Möchten Sie die Rückmeldung #${id} wirklich löschen? Sie lässt sich nicht wiederherstellen.`,
    confirmLabel: "Löschen",
  });
  if (step) return step;
  return deleteFeedback(id, admin)
    ? redirectWithToast(back, { type: "success", message: "Rückmeldung gelöscht." })
    : redirectWithToast(back, {
        type: "error",
        message: "Diese Rückmeldung gibt es nicht mehr.",
      });
}

const term = "text-xs font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400";

/** What visitors reported from the accessibility statement's page (ADR 340), newest first. */
export default function AccessibilityFeedbackPage({
  loaderData,
  actionData,
}: Route.ComponentProps) {
  const { entries, total, page, totalPages, keptDays, published } = loaderData;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">Rückmeldungen zur Barrierefreiheit ({total})</h1>
        <Link to="/admin/settings#accessibility" className={buttonClass("secondary", "sm")}>
          Zurück zu den Einstellungen
        </Link>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Was Besucher über das Formular auf{" "}
        <a
          href={ACCESSIBILITY_PATH}
          className="font-medium text-indigo-700 underline dark:text-indigo-300"
        >
          {ACCESSIBILITY_PATH}
        </a>{" "}
        melden{published ? "" : " (die Erklärung ist derzeit nicht veröffentlicht)"}. Niemand
        bekommt automatisch eine E-Mail; antworten Sie selbst, wenn eine Adresse angegeben ist.
        Einträge werden nach {keptDays} Tagen gelöscht. „Ungeprüft“: ohne die automatische
        Spam-Prüfung gesendet (etwa ohne JavaScript) – bitte selbst einschätzen.
      </p>
      <ConfirmationStep data={actionData} />
      {entries.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-500 dark:border-slate-700 dark:text-slate-400">
          Noch keine Rückmeldungen.
        </p>
      ) : (
        <ul className="space-y-4">
          {entries.map((e) => (
            <li key={e.id} id={`rueckmeldung-${e.id}`} data-testid="feedback-entry">
              <Card className="space-y-3 p-5">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h2 className="font-semibold">
                    Rückmeldung #{e.id} vom {formatDateTime(e.createdAt)} Uhr
                  </h2>
                  {e.held ? (
                    <span className="rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-950 dark:text-amber-100">
                      Ungeprüft
                    </span>
                  ) : null}
                </div>
                <p className="whitespace-pre-line break-words">{e.message}</p>
                <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
                  {e.location ? (
                    <>
                      <dt className={term}>Wo</dt>
                      <dd className="break-words">{e.location}</dd>
                    </>
                  ) : null}
                  <dt className={term}>Von</dt>
                  <dd className="break-words">
                    {e.name ?? "ohne Namen"}
                    {e.email ? (
                      <>
                        {" · "}
                        <a
                          href={`mailto:${e.email}`}
                          className="text-indigo-700 underline dark:text-indigo-300"
                        >
                          {e.email}
                        </a>
                      </>
                    ) : (
                      " · ohne E-Mail-Adresse"
                    )}
                  </dd>
                </dl>
                <ConfirmAction
                  fields={{ id: String(e.id) }}
                  title="Rückmeldung löschen"
                  message={`Möchten Sie die Rückmeldung #${e.id} wirklich löschen? Sie lässt sich nicht wiederherstellen.`}
                  confirmLabel="Löschen"
                  label="Löschen"
                  aria-label={`Rückmeldung #${e.id} löschen`}
                />
              </Card>
            </li>
          ))}
        </ul>
      )}
      <Pagination
        page={page}
        totalPages={totalPages}
        text={`Seite ${page} von ${totalPages}`}
        hrefFor={(p) =>
          p > 1
            ? `${ACCESSIBILITY_FEEDBACK_ADMIN_PATH}?seite=${p}`
            : ACCESSIBILITY_FEEDBACK_ADMIN_PATH
        }
      />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountError error={error} fallback="Fehler beim Abrufen der Rückmeldungen" back="reload" />
  );
}
