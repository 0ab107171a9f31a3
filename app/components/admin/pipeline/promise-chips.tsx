import { formatDateTime } from "~/lib/format";
import {
  PROMISE_KINDS,
  PROMISE_LABELS,
  type PromiseState,
  promiseState,
  promiseText,
} from "~/lib/promises";
import type { RequestPromises } from "~/lib/request-json";

const TONE: Record<PromiseState, string> = {
  none: "",
  due: "bg-slate-100 text-slate-800 dark:bg-slate-800 dark:text-slate-100",
  overdue: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  kept: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-100",
  late: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  dropped: "bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200",
};
/** Due today: amber, like a deadline on the day. */
const TODAY = "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100";

type PromiseProps = {
  promises: RequestPromises;
  /** The request is neither closed (a stage of "Done") nor archived. */
  open: boolean;
  now: string;
};

/**
 * The open promises of a request (ADR 346) as small chips — "Erstkontakt fällig heute",
 * "Testversion überfällig seit 1 Tag" — on list rows and board cards. `now` comes from the
 * loader, so server and browser say the same.
 */
export function PromiseChips({
  promises,
  open,
  now,
  inline = false,
}: PromiseProps & {
  /**
   * The chips flow among their parent's items (a list row's status, badges and date) instead of
   * a block of their own: on a phone they fill the status's line and the date's.
   */
  inline?: boolean;
}) {
  const at = new Date(now);
  const chips = PROMISE_KINDS.flatMap((kind) => {
    const p = promises[kind];
    const state = promiseState(p, at, open);
    if (state !== "due" && state !== "overdue") return [];
    const text = promiseText(p, at, open);
    return [{ kind, state, text }];
  });
  if (!chips.length) return null;
  return (
    <ul
      className={inline ? "contents" : "flex flex-wrap gap-1"}
      aria-label="Versprechen"
      data-promises=""
    >
      {chips.map((chip) => (
        <li
          key={chip.kind}
          data-promise={chip.kind}
          data-promise-state={chip.state}
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${chip.text === "fällig heute" ? TODAY : TONE[chip.state]}`}
        >
          {PROMISE_LABELS[chip.kind]} {chip.text}
        </li>
      ))}
    </ul>
  );
}

/** Both promises with their times, for the full-screen view. */
export function PromiseDetails({ promises, open, now }: PromiseProps) {
  const at = new Date(now);
  return (
    <dl className="grid gap-2 text-sm sm:grid-cols-2" data-promise-details="">
      {PROMISE_KINDS.map((kind) => {
        const p = promises[kind];
        const state = promiseState(p, at, open);
        return (
          <div key={kind} data-promise={kind} data-promise-state={state}>
            <dt className="font-medium">{PROMISE_LABELS[kind]}</dt>
            <dd className="text-slate-700 dark:text-slate-300">
              {state === "none" ? (
                "Kein Versprechen erfasst (in der Spamprüfung oder vor der Pipeline eingegangen)."
              ) : (
                <>
                  <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${TONE[state]}`}>
                    {promiseText(p, at, open)}
                  </span>{" "}
                  fällig {formatDateTime(p.dueAt as string)}
                  {p.doneAt ? `, erledigt ${formatDateTime(p.doneAt)}` : ""}
                </>
              )}
            </dd>
          </div>
        );
      })}
    </dl>
  );
}
