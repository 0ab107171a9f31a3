import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { Alert, inputClass } from "~/components/ui/field";
import { formatDateTime } from "~/lib/format";
import type { FeedLinkView } from "~/lib/team-calendar";
import { useSettingsIndexEntry } from "./settings-index";
import { REFRESH_FORM_ID } from "./team-calendar-settings";

/**
 * Beside the settings form (ADR 267): the private subscription links of the booked demos
 * (create — shown once —, revoke; each its own post, no JS needed), and the form the section's
 * "Jetzt abrufen" button posts (a form cannot sit inside the settings form).
 */
export function TeamCalendarLinks({
  action,
  links,
  newLink,
}: {
  action: string;
  links: FeedLinkView[];
  /** A link just created: the only time its token is shown. */
  newLink?: string;
}) {
  useSettingsIndexEntry("feed-links", "Gebuchte Demos im eigenen Kalender");
  return (
    <Card
      id="feed-links"
      className="scroll-mt-24 space-y-4 p-5"
      role="region"
      aria-labelledby="demo-feed-heading"
    >
      <Form id={REFRESH_FORM_ID} method="post" action={action} hidden />
      <div>
        <h2 id="demo-feed-heading" className="text-lg font-semibold">
          Gebuchte Demos im eigenen Kalender
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Ein privater Abo-Link mit allen gebuchten Demos: nur Uhrzeit, „Demo #Nummer“ und der Link
          ins Back-Office, keine Kontaktdaten. Der Link wird nur einmal angezeigt.
        </p>
      </div>
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
            <li key={link.id} className="flex flex-wrap items-center justify-between gap-2 text-sm">
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
    </Card>
  );
}
