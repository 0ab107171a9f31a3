import { buttonClass } from "~/components/ui/button";
import { FieldErrors, inputClass } from "~/components/ui/field";
import {
  type BusyFeedStatus,
  feedAgeLabel,
  feedErrorLabel,
  feedIsDown,
  lastSuccessLabel,
} from "~/lib/team-calendar";
import {
  AddButton,
  RemoveButton,
  type SettingsForm,
  type SettingsList,
  useSettingsList,
} from "./list-controls";
import {
  initialText,
  isChecked,
  label,
  Section,
  SettingInput,
  type SettingsField,
  type SettingsFields,
  useFieldErrors,
} from "./section";

const ADD_ID = "add-busy-feed";
/** The form beside the settings form whose button "Jetzt abrufen" posts (team-calendar-links.tsx). */
export const REFRESH_FORM_ID = "busy-feeds-refresh";

/**
 * "Kalender des Teams" in the settings form (ADRs 266, 267): the fixed video room and the team's
 * busy-time feeds (a Conform list; stored URLs are shown masked and kept when sent back masked),
 * each with the age of its cache and its last error.
 */
export function TeamCalendarSettings({
  form,
  fields,
  feeds,
  refreshable = false,
}: {
  form: SettingsForm;
  fields: SettingsFields;
  /** The stored feeds' state by id (age of the cache, last error). */
  feeds: BusyFeedStatus[];
  /** Whether the page has the form "Jetzt abrufen" posts. */
  refreshable?: boolean;
}) {
  const team = fields.teamCalendar.getFieldset();
  const list = team.busyFeeds;
  const busyFeeds = useSettingsList(form, list, ADD_ID);
  const { rows, keys } = busyFeeds;
  const byId = new Map(feeds.map((f) => [f.id, f]));
  return (
    <Section
      name="teamCalendar"
      title="Kalender des Teams"
      description="Belegte Zeiten aus Ihren Kalendern sind nicht buchbar, und der Videoraum steht in jeder Terminbestätigung (eingebauter Terminplaner)."
    >
      <div>
        <SettingInput
          meta={team.videoUrl}
          id="team-video-url"
          label="Fester Videoraum (https)"
          type="url"
          inputMode="url"
          placeholder="https://meet.example.com/demo"
          aria-describedby="team-video-url-hint"
        />
        <p id="team-video-url-hint" className="mt-1 text-xs text-slate-600 dark:text-slate-400">
          Steht in Bestätigung, Erinnerung, Kalendereinladung und auf der Verwaltungsseite des
          Termins; ein eigener Link auf einer Terminkarte geht vor. Leer: kein fester Raum.
        </p>
      </div>
      <div>
        <p className={label}>Belegte Zeiten (geheime iCal-Adressen)</p>
        <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
          Google, Outlook oder Nextcloud: die geheime iCal-Adresse des Kalenders. Alle 15 Minuten
          abgerufen; übernommen werden nur Beginn und Ende belegter Termine, keine Titel oder
          Teilnehmer.
        </p>
        {rows.length === 0 ? (
          <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">Noch keine Kalender.</p>
        ) : null}
        <ul className="mb-2 space-y-3">
          {rows.map((row, index) => {
            const rowFields = row.getFieldset();
            const id = initialText(rowFields.id);
            return (
              <FeedRow
                key={keys[index]}
                list={busyFeeds}
                url={rowFields.url}
                idField={rowFields.id}
                index={index}
                status={id ? byId.get(id) : undefined}
              />
            );
          })}
        </ul>
        <div className="flex flex-wrap gap-2">
          <AddButton
            list={busyFeeds}
            defaultValue={{ url: "" }}
            focus={`input[name^="${list.name}["][name$="].url"]`}
          >
            Kalender hinzufügen
          </AddButton>
          {refreshable && feeds.length ? (
            <button
              type="submit"
              form={REFRESH_FORM_ID}
              name="intent"
              value="team-calendar-refresh"
              className={buttonClass("secondary", "sm")}
            >
              Jetzt abrufen
            </button>
          ) : null}
        </div>
        <FieldErrors errors={list.errors} />
      </div>
      <CaldavSettings team={team} />
    </Section>
  );
}

/**
 * The CalDAV side (ADRs 336, 338): who takes a demo, and whether the demo events written into the
 * admins' calendars carry the lead's name. Each admin connects their own calendar in
 * Account-Einstellungen.
 */
function CaldavSettings({
  team,
}: {
  team: ReturnType<SettingsFields["teamCalendar"]["getFieldset"]>;
}) {
  const mode = initialText(team.demoHosts) ?? "team";
  return (
    <>
      <fieldset>
        <legend className={label}>Wer nimmt Demo-Termine an?</legend>
        <p className="mb-2 text-xs text-slate-600 dark:text-slate-400">
          Jede Person verbindet ihren Kalender (CalDAV) unter Account-Einstellungen → Kalender.
        </p>
        {(
          [
            ["team", "Das ganze Team: ein Termin ist frei, wenn kein Kalender belegt ist"],
            [
              "admins",
              "Die Admins, die Demos annehmen: frei, wenn mindestens eine Person frei ist; der Termin geht an sie",
            ],
          ] as const
        ).map(([value, text]) => (
          <label key={value} className="flex items-start gap-2 text-sm">
            <input
              key={team.demoHosts.key}
              type="radio"
              name={team.demoHosts.name}
              value={value}
              defaultChecked={mode === value}
              className="mt-1"
            />
            <span>{text}</span>
          </label>
        ))}
      </fieldset>
      <label className="flex items-start gap-2 text-sm">
        <input
          key={team.leadNameInEvents.key}
          type="checkbox"
          name={team.leadNameInEvents.name}
          defaultChecked={isChecked(team.leadNameInEvents)}
          className="mt-1"
        />
        <span>
          Namen des Interessenten in den Kalendereintrag schreiben
          <span className="block text-xs text-slate-500 dark:text-slate-400">
            Standardmäßig aus: der Eintrag heißt nur „Demo #0042“ und verlinkt die Anfrage.
          </span>
        </span>
      </label>
    </>
  );
}

function FeedRow({
  list,
  url,
  idField,
  index,
  status,
}: {
  list: SettingsList;
  url: SettingsField;
  idField: SettingsField;
  index: number;
  status?: BusyFeedStatus;
}) {
  const number = index + 1;
  const { errors, autoFocus: refused } = useFieldErrors(url);
  const id = initialText(idField);
  const described = [status ? `${url.id}-state` : "", errors?.length ? url.errorId : ""]
    .filter(Boolean)
    .join(" ");
  return (
    <li className="space-y-1" data-testid="busy-feed">
      {id ? <input type="hidden" name={idField.name} value={id} /> : null}
      <label htmlFor={url.id} className="text-xs text-slate-600 dark:text-slate-400">
        Kalender {number}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          key={url.key}
          id={url.id}
          name={url.name}
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="https://calendar.google.com/calendar/ical/…/basic.ics"
          defaultValue={initialText(url)}
          className={`${inputClass} min-w-0 flex-1 font-mono text-sm`}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={described || undefined}
          autoFocus={list.focusIndex === index || refused}
        />
        <RemoveButton
          list={list}
          index={index}
          label={`Kalender ${number} entfernen`}
          variant="secondary"
        />
      </div>
      {status ? (
        <p id={`${url.id}-state`} className="text-xs text-slate-600 dark:text-slate-400">
          {feedIsDown(status) && !status.fetchedAt
            ? lastSuccessLabel(null)
            : feedAgeLabel(status.fetchedAt)}
          {status.fetchedAt ? ` · ${status.busyCount} belegte Zeiten` : ""}
          {feedIsDown(status) ? (
            <span className="block text-amber-800 dark:text-amber-200">
              Letzter Abruf fehlgeschlagen ({feedErrorLabel(status.lastError ?? "")}) – es gelten
              die zuletzt bekannten Zeiten.
            </span>
          ) : null}
        </p>
      ) : null}
      <FieldErrors id={url.errorId} errors={errors} />
    </li>
  );
}
