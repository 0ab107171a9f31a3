import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import { formatDateTime } from "~/lib/format";
import {
  type BusyFeedStatus,
  type FeedLinkView,
  feedAgeLabel,
  feedIsDown,
  type TeamCalendarFormState,
} from "~/lib/team-calendar";

const labelClass = "mb-1 block text-sm font-medium";
const hintClass = "mt-1 text-xs text-slate-600 dark:text-slate-400";
const boxClass = "space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700";

type Props = {
  action: string;
  /** The fixed video room (null: none). */
  videoUrl: string | null;
  /** The busy feeds, URLs masked, with the age of their cache. */
  feeds: BusyFeedStatus[];
  /** The demo feed's subscription links (never their tokens). */
  links: FeedLinkView[];
  state?: TeamCalendarFormState;
};

/**
 * "Kalender des Teams" (issue 28): the fixed video room, the team's busy-time feeds and the
 * subscription links of the booked demos. Each part is its own small form (no JS needed) beside
 * the big settings form.
 */
export function TeamCalendarSettings({ action, videoUrl, feeds, links, state }: Props) {
  const refused = state && "field" in state ? state : undefined;
  const newLink = state && "feedLink" in state ? state.feedLink : undefined;
  return (
    <Card className="space-y-4 p-5" aria-labelledby="team-calendar-heading" role="region">
      <div>
        <h2 id="team-calendar-heading" className="text-lg font-semibold">
          Kalender des Teams
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Belegte Zeiten aus Ihren Kalendern sind nicht buchbar, und der Videoraum geht mit jeder
          Terminbestätigung an die Besucher. Termine des eingebauten Terminplaners.
        </p>
      </div>

      <Form method="post" action={action} className={boxClass} aria-labelledby="video-room-heading">
        <h3 id="video-room-heading" className="font-semibold">
          Fester Videoraum
        </h3>
        <div>
          <label htmlFor="team-video-url" className={labelClass}>
            Link zum Videoraum (https)
          </label>
          <input
            id="team-video-url"
            name="videoUrl"
            type="url"
            inputMode="url"
            placeholder="https://meet.example.com/demo"
            defaultValue={refused?.field === "videoUrl" ? refused.value : (videoUrl ?? "")}
            className={inputClass}
            aria-invalid={refused?.field === "videoUrl" ? true : undefined}
            aria-describedby={`team-video-url-hint${refused?.field === "videoUrl" ? " team-video-url-error" : ""}`}
          />
          <p id="team-video-url-hint" className={hintClass}>
            Steht in Bestätigung, Erinnerung, Kalendereinladung und auf der Verwaltungsseite des
            Termins. Ein eigener Link auf einer Terminkarte geht vor. Leer lassen: kein fester Raum.
          </p>
          <FieldErrors
            id="team-video-url-error"
            errors={refused?.field === "videoUrl" ? [refused.error] : undefined}
          />
        </div>
        <Button type="submit" name="intent" value="team-calendar-video" size="sm">
          Videoraum speichern
        </Button>
      </Form>

      <section className={boxClass} aria-labelledby="busy-feeds-heading">
        <h3 id="busy-feeds-heading" className="font-semibold">
          Belegte Zeiten (iCal-Abos)
        </h3>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Die geheime iCal-Adresse eines Kalenders (Google, Outlook, Nextcloud). Alle 15 Minuten
          abgerufen; übernommen werden nur Beginn und Ende belegter Termine, keine Titel oder
          Teilnehmer.
        </p>
        {feeds.length === 0 ? (
          <p className="text-sm text-slate-600 dark:text-slate-400">Noch keine Kalender.</p>
        ) : (
          <ul className="space-y-3">
            {feeds.map((feed, i) => (
              <FeedRow key={feed.id} feed={feed} index={i} action={action} />
            ))}
          </ul>
        )}
        <Form method="post" action={action} className="space-y-2">
          <div>
            <label htmlFor="team-feed-url" className={labelClass}>
              Kalender hinzufügen: geheime iCal-Adresse
            </label>
            <input
              id="team-feed-url"
              name="feedUrl"
              type="url"
              inputMode="url"
              required
              autoComplete="off"
              spellCheck={false}
              placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"
              defaultValue={refused?.field === "feedUrl" ? refused.value : ""}
              className={`${inputClass} font-mono`}
              aria-invalid={refused?.field === "feedUrl" ? true : undefined}
              aria-describedby={refused?.field === "feedUrl" ? "team-feed-url-error" : undefined}
            />
            <FieldErrors
              id="team-feed-url-error"
              errors={refused?.field === "feedUrl" ? [refused.error] : undefined}
            />
          </div>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" name="intent" value="team-calendar-feed-add" size="sm">
              Kalender hinzufügen
            </Button>
          </div>
        </Form>
        {feeds.length ? (
          <Form method="post" action={action}>
            <Button
              type="submit"
              name="intent"
              value="team-calendar-refresh"
              size="sm"
              variant="secondary"
            >
              Jetzt abrufen
            </Button>
          </Form>
        ) : null}
      </section>

      <section className={boxClass} aria-labelledby="demo-feed-heading">
        <h3 id="demo-feed-heading" className="font-semibold">
          Gebuchte Demos im eigenen Kalender
        </h3>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Ein privater Abo-Link mit allen gebuchten Demos: nur Uhrzeit, „Demo #Nummer“ und der Link
          ins Back-Office, keine Kontaktdaten. Der Link wird nur einmal angezeigt.
        </p>
        {newLink ? (
          <Alert tone="success">
            <label htmlFor="team-feed-link" className="block font-semibold">
              Neuer Abo-Link – jetzt kopieren und im Kalender abonnieren:
            </label>
            <input
              id="team-feed-link"
              readOnly
              value={newLink}
              className={`${inputClass} mt-2 font-mono text-xs`}
            />
          </Alert>
        ) : null}
        {links.length ? (
          <ul className="space-y-2">
            {links.map((link) => (
              <li
                key={link.id}
                className="flex flex-wrap items-center justify-between gap-2 text-sm"
              >
                <span>
                  Abo-Link {link.id} · erzeugt {formatDateTime(link.createdAt)} von {link.createdBy}
                  {" · "}
                  {link.lastUsedAt
                    ? `zuletzt abgerufen ${formatDateTime(link.lastUsedAt)}`
                    : "noch nicht abgerufen"}
                </span>
                <Form method="post" action={action}>
                  <input type="hidden" name="tokenId" value={link.id} />
                  <Button
                    type="submit"
                    name="intent"
                    value="team-calendar-link-revoke"
                    size="sm"
                    variant="secondary"
                    aria-label={`Abo-Link ${link.id} widerrufen`}
                  >
                    Widerrufen
                  </Button>
                </Form>
              </li>
            ))}
          </ul>
        ) : null}
        <Form method="post" action={action}>
          <Button type="submit" name="intent" value="team-calendar-link-create" size="sm">
            Abo-Link erzeugen
          </Button>
        </Form>
      </section>
    </Card>
  );
}

function FeedRow({ feed, index, action }: { feed: BusyFeedStatus; index: number; action: string }) {
  const down = feedIsDown(feed);
  return (
    <li className="space-y-1 text-sm" data-testid="busy-feed">
      <p className="break-all font-mono">{feed.url}</p>
      <p className="text-slate-600 dark:text-slate-400">
        {feedAgeLabel(feed.fetchedAt)}
        {feed.fetchedAt ? ` · ${feed.busyCount} belegte Zeiten` : ""}
      </p>
      {down ? (
        <p className="text-amber-800 dark:text-amber-200">
          Letzter Abruf fehlgeschlagen ({(feed.lastError ?? "").replace(/\.$/, "")}) – es gelten die
          zuletzt bekannten Zeiten.
        </p>
      ) : null}
      <Form method="post" action={action}>
        <input type="hidden" name="feedId" value={feed.id} />
        <Button
          type="submit"
          name="intent"
          value="team-calendar-feed-delete"
          size="sm"
          variant="secondary"
          aria-label={`Kalender ${index + 1} entfernen`}
        >
          Entfernen
        </Button>
      </Form>
    </li>
  );
}
