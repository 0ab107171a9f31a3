import { useId } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import type { RequestJson } from "~/lib/request-json";
import { type DetailContext, useActionUrl } from "./detail-context";

/** Assigned admins (each removable) and a select to assign one more active admin. */
export function AssignmentSection({
  request,
  ctx,
  labelPrefix = "Admin zuweisen",
}: {
  request: Pick<RequestJson, "id" | "assigned_to">;
  ctx: DetailContext;
  /** Label of the admin select (the row's menu uses its own, so labels stay unique). */
  labelPrefix?: string;
}) {
  const fetcher = useFetcher();
  const action = useActionUrl();
  const uid = useId();
  const assigned = ctx.admins.filter((a) => request.assigned_to.includes(a.id));
  const available = ctx.admins.filter((a) => a.is_active && !request.assigned_to.includes(a.id));
  return (
    <div className="space-y-3 text-sm">
      {assigned.length ? (
        <ul className="flex flex-wrap gap-2">
          {assigned.map((admin) => (
            <li
              key={admin.id}
              className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-1 pl-3 pr-1 dark:bg-slate-800"
            >
              {admin.username}
              <fetcher.Form method="post" action={action}>
                <input type="hidden" name="intent" value="assign" />
                <input type="hidden" name="op" value="remove" />
                <input type="hidden" name="id" value={request.id} />
                <input type="hidden" name="adminId" value={admin.id} />
                <button
                  type="submit"
                  className="rounded-full px-2 text-slate-500 dark:text-slate-400 hover:bg-slate-200 hover:text-slate-900 dark:hover:bg-slate-700"
                  aria-label={`Zuweisung von ${admin.username} entfernen`}
                >
                  ×
                </button>
              </fetcher.Form>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-slate-500 dark:text-slate-400">Niemand zugewiesen.</p>
      )}
      {available.length ? (
        <fetcher.Form method="post" action={action} className="flex flex-wrap items-center gap-2">
          <input type="hidden" name="intent" value="assign" />
          <input type="hidden" name="op" value="add" />
          <input type="hidden" name="id" value={request.id} />
          <label htmlFor={`${uid}-assign`} className="sr-only">
            {labelPrefix}
          </label>
          <select id={`${uid}-assign`} name="adminId" className={inputClass}>
            {available.map((a) => (
              <option key={a.id} value={a.id}>
                {a.username}
              </option>
            ))}
          </select>
          <Button type="submit" size="sm" variant="secondary" disabled={fetcher.state !== "idle"}>
            Zuweisen
          </Button>
        </fetcher.Form>
      ) : null}
    </div>
  );
}
