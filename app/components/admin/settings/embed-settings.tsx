import { buttonClass } from "~/components/ui/button";
import { FieldErrors } from "~/components/ui/field";
import { useToast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";
import { EMBED_ORIGINS_MAX, embedSnippet } from "~/lib/embed";
import { AddButton, CompactTextList, type SettingsForm, useSettingsList } from "./list-controls";
import { label, Section, type SettingsFields } from "./section";

const ADD_ID = "add-embed-origin";
const HINT_ID = "embed-origins-hint";
const code =
  "mt-1 overflow-x-auto whitespace-pre-wrap break-all rounded-md bg-slate-100 p-3 font-mono text-xs text-slate-800 dark:bg-slate-800 dark:text-slate-100";

/** With JS: copies one part of the snippet (without JS the code above is selected by hand). */
function CopySnippet({ title, text }: { title: string; text: string }) {
  const hydrated = useHydrated();
  const toast = useToast();
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className={buttonClass("secondary", "sm")}
      onClick={async () => {
        try {
          await navigator.clipboard.writeText(text);
          toast.success("In die Zwischenablage kopiert!");
        } catch {
          toast.error("Fehler beim Kopieren!");
        }
      }}
    >
      Kopieren<span className="sr-only">{` (${title})`}</span>
    </button>
  );
}

/** One part of the snippet: the code to select by hand, and a copy button with JS. */
function Snippet({ id, title, text }: { id: string; title: string; text: string }) {
  return (
    <div>
      <div className="flex flex-wrap items-end justify-between gap-2">
        <p className="text-sm font-medium" id={`${id}-label`}>
          {title}
        </p>
        <CopySnippet title={title} text={text} />
      </div>
      <pre className={code} data-testid={id}>
        <code>{text}</code>
      </pre>
    </div>
  );
}

/**
 * "Einbettung" (ADR 283): the websites that may show the contact form in a frame (a Conform list
 * like the blocklist; empty = off) and the snippet to paste into such a website.
 */
export function EmbedSettings({
  form,
  fields,
  appUrl,
}: {
  form: SettingsForm;
  fields: SettingsFields;
  /** APP_URL: where the snippet's frame and script come from. */
  appUrl?: string;
}) {
  const list = fields.embed.getFieldset().allowedOrigins;
  const entries = useSettingsList(form, list, ADD_ID);
  const snippet = appUrl ? embedSnippet(appUrl) : null;
  // The stored list (not the one being edited): the snippet works only once a website is saved.
  const stored = list.initialValue;
  const saved = Array.isArray(stored) && stored.some(Boolean);
  return (
    <Section
      name="embed"
      title="Einbettung auf der eigenen Website"
      description="Das Kontaktformular in einem Rahmen (iframe) auf Ihren Websites. Ohne Einträge ist die Einbettung aus."
    >
      <div>
        <p className={label} id="embed-origins-label">
          Erlaubte Websites
        </p>
        <p id={HINT_ID} className="mb-2 text-xs text-slate-500 dark:text-slate-400">
          {`Je Feld eine Adresse mit Schema und Host, ohne Pfad, z. B. https://www.example.com (höchstens ${EMBED_ORIGINS_MAX}). Nur https; http nur für localhost, solange die App selbst lokal läuft.`}
        </p>
        <CompactTextList
          list={entries}
          labelledBy="embed-origins-label"
          label="Erlaubte Website"
          emptyName="Leere Website"
          hint={HINT_ID}
          type="url"
          placeholder="https://www.example.com"
        />
        <AddButton list={entries} defaultValue="" focus={`[name^="${list.name}["]`}>
          Website hinzufügen
        </AddButton>
        <FieldErrors errors={list.errors} />
      </div>
      {snippet ? (
        <div className="space-y-3" data-testid="embed-snippet">
          {saved ? null : (
            <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
              Noch ist keine Website gespeichert: Tragen Sie oben zuerst eine Website ein und
              speichern Sie – erst dann zeigt ein Rahmen mit diesem Code das Formular.
            </p>
          )}
          <p className="text-sm">
            Fügen Sie den Rahmen dort in Ihre Seite ein, wo das Formular stehen soll. Das Skript
            darunter ist optional: Es passt die Höhe des Rahmens an den Inhalt an und gibt die
            Adresse Ihrer Seite und ihre utm_*-Parameter an das Formular weiter (sonst wird nur die
            Domain als Herkunft gespeichert).
          </p>
          <Snippet id="embed-snippet-iframe" title="Rahmen (iframe)" text={snippet.iframe} />
          <Snippet id="embed-snippet-script" title="Skript (optional)" text={snippet.script} />
          <Snippet
            id="embed-snippet-csp"
            title="Nötige Freigaben, falls Ihre Seite eine Content-Security-Policy hat"
            text={snippet.csp}
          />
          <p className="text-xs text-slate-500 dark:text-slate-400">
            allow="microphone" erlaubt Sprachnachrichten im Rahmen; ohne bietet das Formular die
            Auswahl einer Audiodatei an. Im Rahmen setzt das Formular keine Cookies und zeigt weder
            Cookie-Hinweis noch Analyse.
          </p>
        </div>
      ) : null}
    </Section>
  );
}
