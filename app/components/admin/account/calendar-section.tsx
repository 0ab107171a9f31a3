import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { FocusOnArrival } from "~/components/ui/focus-on-arrival";
import { ConformForm, Field, useConformForm } from "~/components/ui/form";
import {
  type CaldavConnectionView,
  CaldavConnectSchema,
  type CalendarReply,
  caldavWarningText,
} from "~/lib/caldav";
import { formatDateTime } from "~/lib/format";
import { AccountSection } from "./account-section";

/**
 * Posts back to the page without a fragment: the answer of a no-JS post takes the focus by
 * `autofocus` (which a fragment would cancel) and is scrolled into view with it.
 */
const BACK = "/admin/account";

/**
 * "Kalender (CalDAV)" on /admin/account (ADRs 335–338): connect the own calendar (server address
 * with discovery, user name, app password — sealed, never shown again), choose the calendars that
 * count as busy and the one demos are written into, say whether one takes demos, test the
 * connection. Plain form posts: it all works without JavaScript.
 */
export function CalendarSection({
  view,
  reply,
}: {
  view: CaldavConnectionView;
  reply?: CalendarReply;
}) {
  const busy = useNavigation().state === "submitting";
  const answer = reply?.message || reply?.error ? reply : undefined;
  const connectReply = reply?.intent === "calendar-connect" ? reply : undefined;
  return (
    <AccountSection
      id="kalender"
      title="Kalender (CalDAV)"
      description="Verbinden Sie Ihren Kalender (Nextcloud, iCloud mit App-Passwort, Fastmail, mailbox.org, Posteo, Radicale): belegte Zeiten sind dann nicht buchbar, und gebuchte Demos stehen in Ihrem Kalender."
    >
      {answer ? (
        <FocusOnArrival arrival={answer} className="space-y-3">
          {answer.message ? <Alert tone="success">{answer.message}</Alert> : null}
          {answer.error ? <Alert>{answer.error}</Alert> : null}
        </FocusOnArrival>
      ) : null}
      {view.connected ? (
        <>
          <ConnectionState view={view} />
          <ChoiceForm view={view} busy={busy} />
          <div className="flex flex-wrap gap-2">
            <Form method="post" action={BACK}>
              <input type="hidden" name="intent" value="calendar-test" />
              <Button type="submit" variant="secondary" size="sm" disabled={busy}>
                Verbindung testen
              </Button>
            </Form>
            <Form method="post" action={BACK}>
              <input type="hidden" name="intent" value="calendar-disconnect" />
              <Button type="submit" variant="ghost" size="sm" disabled={busy}>
                Verbindung trennen
              </Button>
            </Form>
          </div>
          <details
            className="rounded-lg border border-slate-200 p-3 dark:border-slate-700"
            open={Boolean(connectReply?.result)}
          >
            <summary className="cursor-pointer text-sm font-medium">Zugangsdaten ändern</summary>
            <div className="pt-3">
              <ConnectForm reply={connectReply} busy={busy} view={view} />
            </div>
          </details>
        </>
      ) : (
        <ConnectForm reply={connectReply} busy={busy} />
      )}
    </AccountSection>
  );
}

type Connected = Extract<CaldavConnectionView, { connected: true }>;

function ConnectionState({ view }: { view: Connected }) {
  const host = (() => {
    try {
      return new URL(view.serverUrl).host;
    } catch {
      return view.serverUrl;
    }
  })();
  return (
    <div className="space-y-2 text-sm" data-testid="calendar-state">
      <p>
        Verbunden mit <strong>{host}</strong> als <strong>{view.username}</strong>
        {view.lastOkAt ? ` · zuletzt erreichbar ${formatDateTime(view.lastOkAt)} Uhr` : ""}
      </p>
      {view.lastError && view.errorKind ? (
        <Alert tone="warning">
          {caldavWarningText({ error: view.lastError, errorKind: view.errorKind })}
        </Alert>
      ) : null}
    </div>
  );
}

function ChoiceForm({ view, busy }: { view: Connected; busy: boolean }) {
  return (
    <Form method="post" action={BACK} className="space-y-4">
      <input type="hidden" name="intent" value="calendar-choice" />
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-medium">Ihre Kalender</legend>
        <ul className="space-y-2">
          {view.calendars.map((c, i) => (
            <li
              key={c.url}
              data-testid="calendar-row"
              className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700"
            >
              <p className="font-medium">{c.name}</p>
              <div className="mt-1 flex flex-wrap gap-x-6 gap-y-1">
                <label className="inline-flex items-center gap-2">
                  <input
                    type="checkbox"
                    name="busyCalendars"
                    value={c.url}
                    defaultChecked={c.busy}
                  />
                  Zählt als belegt<span className="sr-only"> ({c.name})</span>
                </label>
                <label className="inline-flex items-center gap-2">
                  <input
                    type="radio"
                    name="writeCalendar"
                    value={c.url}
                    defaultChecked={c.write}
                    aria-describedby={i === 0 ? "calendar-write-hint" : undefined}
                  />
                  Demos hier eintragen<span className="sr-only"> ({c.name})</span>
                </label>
              </div>
            </li>
          ))}
        </ul>
        <label className="inline-flex items-center gap-2 text-sm">
          <input type="radio" name="writeCalendar" value="" defaultChecked={!view.writeCalendar} />
          Demos in keinen Kalender eintragen
        </label>
        <p id="calendar-write-hint" className="text-xs text-slate-600 dark:text-slate-400">
          Ein Eintrag heißt „Demo #0042“ und verlinkt die Anfrage; der Interessent wird nie als
          Teilnehmer eingetragen. Wird er im Kalender verschoben oder gelöscht, zeigt die
          Terminkarte das an.
        </p>
      </fieldset>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name="takesDemos"
          defaultChecked={view.takesDemos}
          className="mt-1"
        />
        <span>
          Ich nehme Demo-Termine an
          <span className="block text-xs text-slate-500 dark:text-slate-400">
            Gilt, wenn unter Einstellungen → Kalender des Teams „Die Admins, die Demos annehmen“
            gewählt ist.
          </span>
        </span>
      </label>
      <Button type="submit" size="sm" disabled={busy}>
        Auswahl speichern
      </Button>
    </Form>
  );
}

function ConnectForm({
  reply,
  busy,
  view,
}: {
  reply?: CalendarReply;
  busy: boolean;
  view?: Connected;
}) {
  const [form, fields] = useConformForm(CaldavConnectSchema, reply?.result, {
    id: "calendar-connect",
    defaultValue: view ? { serverUrl: view.serverUrl, username: view.username } : undefined,
  });
  return (
    <ConformForm form={form} action={BACK}>
      <input type="hidden" name="intent" value="calendar-connect" />
      <Field
        meta={fields.serverUrl}
        label="Adresse des Kalender-Servers"
        inputMode="url"
        autoComplete="url"
        spellCheck={false}
        placeholder="https://cloud.example.com"
        hint="Meist genügt die Adresse des Servers; die Kalender werden gesucht (/.well-known/caldav)."
      />
      <Field
        meta={fields.username}
        label="Benutzername"
        autoComplete="username"
        spellCheck={false}
      />
      <Field
        meta={fields.password}
        label="App-Passwort"
        type="password"
        autoComplete="new-password"
        hint="Ein eigenes App-Passwort für dieses Portal (nicht Ihr Hauptpasswort). Es wird verschlüsselt gespeichert und nie wieder angezeigt."
      />
      <Button type="submit" disabled={busy}>
        {busy ? "Wird verbunden …" : "Verbinden"}
      </Button>
    </ConformForm>
  );
}
