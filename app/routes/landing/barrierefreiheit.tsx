import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, useLocation } from "react-router";
import {
  AccessibilityFeedback,
  FEEDBACK_ANCHOR,
} from "~/components/landing/accessibility-feedback";
import { StatementSection } from "~/components/landing/accessibility-statement";
import { VisitorError } from "~/components/landing/visitor-error";
import {
  ACCESSIBILITY_PATH,
  accessibilityStatement,
  sectionId,
  statementSections,
} from "~/lib/accessibility";
import { brandedTitle } from "~/lib/branding";
import { submitFeedback } from "~/server/accessibility/feedback.server";
import { branding } from "~/server/branding/branding.server";
import { getConfiguration } from "~/server/configuration/configuration.server";
import { readForm } from "~/server/http/http.server";
import { clientIp } from "~/server/http/request-context.server";
import type { Route } from "./+types/barrierefreiheit";

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: brandedTitle("Erklärung zur Barrierefreiheit", loaderData?.name) },
  {
    name: "description",
    content:
      "Was diese Website bietet, wie du sie mit Tastatur und Screenreader nutzt und wie sie die Anforderungen an die Barrierefreiheit erfüllt.",
  },
];

/** A refused post's Retry-After (429) reaches the browser. */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

const UNPUBLISHED = "Diese Seite gibt es derzeit nicht.";

/** The statement as published in the settings ("Barrierefreiheit", ADR 340); off: 404. */
export function loader({ request }: Route.LoaderArgs) {
  const settings = getConfiguration().accessibility;
  if (!settings.publish) throw data(UNPUBLISHED, { status: 404 });
  return {
    name: branding().name,
    sections: statementSections(accessibilityStatement(settings)),
    sent: new URL(request.url).searchParams.get("gesendet") === "1",
  };
}

/** The feedback form (with JS and without): stored, then the page again with the thanks. */
export async function action({ request, context }: Route.ActionArgs) {
  const result = await submitFeedback(await readForm(request), clientIp(context));
  if (result.ok) return redirect(`${ACCESSIBILITY_PATH}?gesendet=1#${FEEDBACK_ANCHOR}`, 303);
  return data(
    { result: result.reply as SubmissionResult<string[]> },
    {
      status: result.status,
      headers: result.retryAfterSeconds
        ? { "Retry-After": String(result.retryAfterSeconds) }
        : undefined,
    },
  );
}

export default function AccessibilityPage({ loaderData, actionData }: Route.ComponentProps) {
  const { name, sections, sent } = loaderData;
  const location = useLocation();
  return (
    <main className="mx-auto max-w-3xl space-y-10 px-4 py-10 sm:px-6 sm:py-14">
      <div className="space-y-4">
        <h1 className="text-3xl font-bold text-slate-900 dark:text-white">
          Erklärung zur Barrierefreiheit
        </h1>
        <p className="text-slate-700 dark:text-slate-300">
          {name} soll für alle nutzbar sein. Hier steht, was du auf dieser Website tun kannst, wie
          du sie bedienst und wie sie die Anforderungen an die Barrierefreiheit erfüllt (§ 14
          Barrierefreiheitsstärkungsgesetz mit Anlage 3). Wenn dir eine Barriere begegnet, sag es
          uns über das Formular unten.
        </p>
        <nav aria-label="Inhalt der Erklärung">
          <ul className="list-disc space-y-1 pl-5">
            {sections.map((s) => (
              <li key={s.key}>
                <a
                  href={`#${sectionId(s.key)}`}
                  className="text-indigo-700 underline dark:text-indigo-300"
                >
                  {s.title}
                </a>
              </li>
            ))}
            <li>
              <a
                href={`#${FEEDBACK_ANCHOR}`}
                className="text-indigo-700 underline dark:text-indigo-300"
              >
                Barriere melden oder Rückmeldung geben
              </a>
            </li>
          </ul>
        </nav>
      </div>
      {sections.map((s) => (
        <StatementSection key={s.key} id={sectionId(s.key)} title={s.title} text={s.text} />
      ))}
      {/* After each sent entry the form starts empty again (a new navigation, a new key). */}
      <AccessibilityFeedback
        key={sent ? location.key : "form"}
        lastResult={actionData?.result}
        sent={sent}
      />
    </main>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <VisitorError
      error={error}
      title="Erklärung zur Barrierefreiheit"
      fallback="Die Seite konnte nicht geladen werden. Bitte versuche es später noch einmal."
    />
  );
}
