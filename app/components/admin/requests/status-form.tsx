import { useId } from "react";
import { useFetcher } from "react-router";
import { AutoSaveStatus } from "~/components/ui/auto-save-status";
import { inputClass } from "~/components/ui/field";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { RequestJson } from "~/lib/request-json";
import { REQUEST_STATUSES, STATUS_LABELS } from "~/lib/request-list";
import { useActionUrl } from "./detail-context";

export function StatusForm({ request }: { request: Pick<RequestJson, "id" | "status"> }) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const action = useActionUrl(request.id);
  const pending = fetcher.formData?.get("status");
  const uid = useId();
  return (
    <fetcher.Form method="post" action={action} className="flex items-center gap-2">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="id" value={request.id} />
      <label className="sr-only" htmlFor={`${uid}-status`}>
        Status von Anfrage {request.id}
      </label>
      <select
        id={`${uid}-status`}
        name="status"
        defaultValue={request.status}
        key={`${request.id}-${request.status}`}
        className={`${inputClass} w-auto py-1 text-sm`}
        onChange={(event) => {
          if (hydrated) fetcher.submit(event.currentTarget.form);
        }}
        disabled={fetcher.state !== "idle"}
      >
        {REQUEST_STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_LABELS[s]}
          </option>
        ))}
      </select>
      <AutoSaveStatus pending={Boolean(pending)}>Status speichern</AutoSaveStatus>
    </fetcher.Form>
  );
}
