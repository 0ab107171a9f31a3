import { useId } from "react";
import { useFetcher } from "react-router";
import { AutoSaveStatus } from "~/components/ui/auto-save-status";
import { inputClass } from "~/components/ui/field";
import { useFocusAfterSave } from "~/components/ui/use-focus-after-save";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { RequestJson } from "~/lib/request-json";
import { REQUEST_STATUSES, STATUS_LABELS } from "~/lib/request-list";
import { useActionUrl } from "./detail-context";

/**
 * A request's status as a select: with JS a change posts at once; without JS "Status speichern"
 * posts. `compact` (a list row, ADR 236): the select shares its line with the stage's while both
 * fit whole, and the button without JS is a check mark named "Status speichern".
 */
export function StatusForm({
  request,
  compact = false,
}: {
  request: Pick<RequestJson, "id" | "status">;
  compact?: boolean;
}) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const action = useActionUrl(request.id);
  const pending = fetcher.formData?.get("status");
  const uid = useId();
  const focus = useFocusAfterSave<HTMLSelectElement>(fetcher.state === "idle");
  return (
    <fetcher.Form
      method="post"
      action={action}
      className={`flex items-center gap-2 ${compact ? compactFormClass : ""}`}
    >
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="id" value={request.id} />
      <label className="sr-only" htmlFor={`${uid}-status`}>
        Status von Anfrage {request.id}
      </label>
      <select
        ref={focus.ref}
        id={`${uid}-status`}
        name="status"
        defaultValue={request.status}
        key={`${request.id}-${request.status}`}
        className={`${inputClass} py-1 text-sm ${compact ? compactSelectClass : "w-auto"}`}
        onChange={(event) => {
          if (!hydrated) return;
          focus.remember();
          fetcher.submit(event.currentTarget.form);
        }}
        // Not disabled while saving: a disabled select loses the keyboard's focus.
        aria-busy={fetcher.state !== "idle"}
      >
        {REQUEST_STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_LABELS[s]}
          </option>
        ))}
      </select>
      <AutoSaveStatus pending={Boolean(pending)} compact={compact}>
        Status speichern
      </AutoSaveStatus>
    </fetcher.Form>
  );
}

/**
 * A row's form shares its line with its neighbour below 1024 px (ADR 236) while both fit; it never
 * gets narrower than its select's chosen value and its button, so the form wraps onto a line of
 * its own instead of cutting the value off (ADR 359). `max-w-full`: a stage name longer than the
 * row is cut, not the page widened.
 */
export const compactFormClass = "max-w-full flex-1 lg:flex-none";
/**
 * The select is as wide as its chosen value (`field-sizing: content`; as wide as its longest
 * option, two short values such as "Neu" and "Neu" took a line each on a phone and pushed the
 * row's menus below the screen) and grows into the room its form has below 1024 px (`w-full` would
 * not do: a select of a percentage width counts as no width when the row decides what fits on a
 * line, and was cut instead of wrapped). `min-w-0`: shrinks only when its form hits the row's width.
 */
export const compactSelectClass = "field-sizing-content w-auto min-w-0 flex-auto lg:flex-none";
