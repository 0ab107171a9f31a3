import { Link } from "react-router";
import { AgencyContact } from "~/components/landing/agency-contact";
import { buttonClass } from "~/components/ui/button";
import { ConfirmationStep } from "~/components/ui/confirm-action";
import { isConfirmationStep } from "~/lib/confirmation";
import { WITHDRAW_PATH } from "~/lib/withdrawal";
import { withdrawVisitorRequest } from "~/server/privacy/withdrawal.server";
import type { Route } from "./+types/anfrage-zurueckziehen";

export const meta: Route.MetaFunction = () => [
  { title: "Anfrage zurückziehen" },
  { name: "robots", content: "noindex" },
];

/** The confirmation step names the visitor's own request (ADR 324). */
export function headers() {
  return { "Cache-Control": "private, no-store" };
}

/** The visitor withdraws their own request; without JS the action answers with a confirmation step. */
export function action({ request }: Route.ActionArgs) {
  return withdrawVisitorRequest(request);
}

export default function Withdraw({ actionData }: Route.ComponentProps) {
  return (
    <main className="mx-auto max-w-xl px-4 py-16 sm:px-6">
      <h1 className="text-2xl font-bold text-slate-900 dark:text-white">Anfrage zurückziehen</h1>
      {isConfirmationStep(actionData) ? (
        <ConfirmationStep data={actionData} action={WITHDRAW_PATH} />
      ) : (
        <p className="mt-4 text-slate-700 dark:text-slate-300">
          Wähle die Anfrage in deiner Übersicht „Meine Anfragen“ aus, die du zurückziehen möchtest.
        </p>
      )}
      <p className="mt-6">
        <Link to="/#history" className={buttonClass("secondary", "sm")}>
          Zurück zu meinen Anfragen
        </Link>
      </p>
      <AgencyContact />
    </main>
  );
}
