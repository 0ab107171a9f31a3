import { data } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { TaskList } from "~/components/admin/tasks/task-list";
import { requireAdmin } from "~/server/accounts/auth.server";
import { tasksOf } from "~/server/follow-ups/follow-ups.server";
import { readForm } from "~/server/http/http.server";
import type { Route } from "./+types/aufgaben";
import { handleWorkIntent } from "./request-work.server";

export const meta: Route.MetaFunction = () => [{ title: "Meine Aufgaben" }];

/** "Meine Aufgaben" (ADR 351): the signed-in admin's open follow-ups by day. */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  return tasksOf(admin.id);
}

/** "Erledigt" (a real form: works without JavaScript), the same rule as its /api twin. */
export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  const form = await readForm(request);
  if (form.get("intent") !== "follow-up-done")
    return data({ error: "Unbekannte Aktion." }, { status: 400 });
  return handleWorkIntent("follow-up-done", form, admin, "/admin/aufgaben");
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export default function Tasks({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-4xl space-y-5">
      <div>
        <h1 className="text-2xl font-bold">Meine Aufgaben</h1>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Ihre offenen Wiedervorlagen. „Antwort erhalten“ und „Termin gebucht“ heißen: Der Kunde hat
          sich schon gemeldet.
        </p>
      </div>
      <TaskList buckets={loaderData.buckets} today={loaderData.today} action="/admin/aufgaben" />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountError error={error} fallback="Fehler beim Abrufen der Aufgaben" back="dashboard" />
  );
}
