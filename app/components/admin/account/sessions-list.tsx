import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import type { SessionJson } from "~/lib/api-tokens";
import { describeUserAgent } from "~/lib/client-description";
import { formatDateTime } from "~/lib/format";
import { ReplyAlerts } from "./reply-alerts";

/**
 * The forms post back to the account page; the answer takes the focus (`FocusOnArrival`), which
 * scrolls it into view. No `#sitzungen` here: a URL fragment would stop the browser's autofocus.
 */
const BACK = "/admin/account";

/**
 * The admin's sessions in the "Sicherheit" section (ADR 261): browser and system, network (/24 or
 * /48), login and last activity, "dieses Gerät"; "Abmelden" per session and "Alle anderen
 * abmelden" — plain form posts, so it works without JavaScript.
 */
export function SessionsList({
  sessions,
  idleHours,
  reply,
}: {
  sessions: SessionJson[];
  idleHours: number;
  reply?: { message?: string; error?: string };
}) {
  const busy = useNavigation().state === "submitting";
  const others = sessions.filter((s) => !s.current).length;
  return (
    <div className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-700">
      <h3 id="sitzungen" className="scroll-mt-24 font-semibold">
        Angemeldete Geräte
      </h3>
      {/* The session's row is gone with its button: the answer takes the focus. */}
      <ReplyAlerts reply={reply} />
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Eine Sitzung endet nach {idleHours} Stunden ohne Aktivität und spätestens 30 Tage nach der
        Anmeldung. Eine Passwortänderung oder eine Änderung der Zwei-Faktor-Anmeldung meldet alle
        anderen Sitzungen ab.
      </p>
      <ul aria-labelledby="sitzungen" className="space-y-2">
        {sessions.map((s) => {
          const device = describeUserAgent(s.userAgent);
          return (
            <li
              key={s.id}
              data-testid="session"
              className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700"
            >
              <div className="min-w-0 space-y-0.5">
                <p className="font-medium">
                  {device}
                  {s.current ? (
                    <span className="ml-2 rounded bg-green-100 px-1.5 py-0.5 text-xs font-medium text-green-800 dark:bg-green-950 dark:text-green-200">
                      dieses Gerät
                    </span>
                  ) : null}
                </p>
                <p className="text-slate-600 dark:text-slate-300">
                  {s.network ? <>Netz {s.network} · </> : null}
                  Angemeldet {formatDateTime(s.createdAt)} · Zuletzt aktiv{" "}
                  {formatDateTime(s.lastSeenAt)}
                </p>
              </div>
              {s.current ? (
                <Form method="post" action="/admin/logout">
                  <Button type="submit" variant="secondary" size="sm">
                    Abmelden<span className="sr-only"> (dieses Gerät)</span>
                  </Button>
                </Form>
              ) : (
                <Form method="post" action={BACK}>
                  <input type="hidden" name="intent" value="session-end" />
                  <input type="hidden" name="id" value={s.id} />
                  <Button type="submit" variant="secondary" size="sm" disabled={busy}>
                    Abmelden
                    <span className="sr-only">
                      {" "}
                      ({device}, zuletzt aktiv {formatDateTime(s.lastSeenAt)})
                    </span>
                  </Button>
                </Form>
              )}
            </li>
          );
        })}
      </ul>
      {others > 0 ? (
        <Form method="post" action={BACK}>
          <input type="hidden" name="intent" value="sessions-end-others" />
          <Button type="submit" variant="danger" size="sm" disabled={busy}>
            Alle anderen abmelden
          </Button>
        </Form>
      ) : null}
    </div>
  );
}
