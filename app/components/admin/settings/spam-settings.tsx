import { Link } from "react-router";
import { FieldErrors } from "~/components/ui/field";
import { AddButton, CompactTextList, type SettingsForm, useSettingsList } from "./list-controls";
import { label, NumberSettings, Section, type SettingsFields } from "./section";

const ADD_ID = "add-blocklist-entry";
const HINT_ID = "blocklist-hint";

/**
 * Spam defence and costs (ADRs 251, 255): the blocklist (a Conform list, one entry a row, checked by
 * lib/blocklist.ts on both sides), how long the quarantine keeps requests and the daily budgets of
 * the AI and of the transcription of voice messages (ADR 272).
 */
export function SpamSettings({ form, fields }: { form: SettingsForm; fields: SettingsFields }) {
  const spam = fields.spam.getFieldset();
  const ai = fields.ai.getFieldset();
  const transcription = fields.transcription.getFieldset();
  const scriptFree = fields.scriptFree.getFieldset();
  const list = spam.blocklist;
  const entries = useSettingsList(form, list, ADD_ID);
  return (
    <Section
      name="spam"
      title="Spam-Schutz und Kosten"
      description="Sperrliste, Aufbewahrung verdächtiger Anfragen und die Tagesbudgets für KI und Transkription."
    >
      <p className="text-sm">
        Verdächtige Anfragen (ohne gültigen Spam-Schutz oder von der Sperrliste) landen ohne E-Mail,
        Webhook und KI-Aufruf unter{" "}
        <Link
          to="/admin/requests?tab=quarantine"
          className="font-medium text-indigo-600 underline dark:text-indigo-400"
        >
          „Prüfen“
        </Link>
        , bis Sie sie freigeben oder löschen. Bucht eine solche Anfrage einen Termin, belegt er den
        Platz nur, solange das Tageskontingent unten reicht; darüber wird er nur vorgemerkt. Bei der
        Freigabe wird der Platz erneut geprüft – ist er vergeben, sehen Sie „Termin nicht mehr frei“
        und die Eingangsbestätigung bietet einen neuen Termin an.
      </p>
      <div>
        <p className={label} id="blocklist-label">
          Sperrliste
        </p>
        <p id={HINT_ID} className="mb-2 text-xs text-slate-500 dark:text-slate-400">
          Je Feld ein Eintrag (weitere mit „Eintrag hinzufügen“): E-Mail-Adresse, Domain (* als
          Platzhalter, z. B. *.example.com), IP-Adresse oder CIDR-Bereich (z. B. 192.0.2.0/24).
          Treffer kommen immer in die Prüfung.
        </p>
        <CompactTextList
          list={entries}
          labelledBy="blocklist-label"
          label="Sperrlisten-Eintrag"
          emptyName="Leeren Eintrag"
          hint={HINT_ID}
          placeholder="*@spam.example oder 192.0.2.0/24"
        />
        <AddButton list={entries} defaultValue="" focus={`[name^="${list.name}["]`}>
          Eintrag hinzufügen
        </AddButton>
        <FieldErrors errors={list.errors} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <NumberSettings
          settings={[
            [
              spam.quarantineDays,
              "quarantineDays",
              "Anfragen in der Prüfung automatisch löschen nach (Tagen)",
            ],
            [
              spam.heldBookingsPerDay,
              "heldBookingsPerDay",
              "Termine von Anfragen in der Prüfung, die pro Tag einen Platz belegen, höchstens",
            ],
            [ai.dailyLimit, "aiDailyLimit", "Automatische KI-Zusammenfassungen pro Tag höchstens"],
            [ai.manualDailyLimit, "aiManualDailyLimit", "Ihre KI-Aktionen pro Tag höchstens"],
            [
              transcription.dailyLimit,
              "transcriptionDailyLimit",
              "Transkriptionen von Sprachnachrichten pro Tag höchstens",
            ],
            [
              scriptFree.dailyLimit,
              "scriptFreeDailyLimit",
              "Anfragen ohne JavaScript pro Tag per Kontrollfrage freigeben, höchstens",
            ],
          ]}
        />
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Über ihrem Budget warten automatische Zusammenfassungen neuer Anfragen auf den nächsten Tag.
        „Automatisch vorbereiten“ und der Prompt für den KI-Coding-Assistenten haben ein eigenes
        Budget, das Besucher nicht aufbrauchen können; darüber werden sie abgelehnt. 0 schaltet die
        jeweiligen KI-Aufrufe ab. Über dem Transkriptions-Budget warten Sprachnachrichten auf den
        nächsten Tag; 0 schickt keine Aufnahme mehr an den Transkriptionsdienst (nur wirksam, wenn
        TRANSCRIPTION_API_URL gesetzt ist). Wer ohne JavaScript schreibt, beantwortet nach dem
        Senden eine kurze Rechenfrage; eine richtige Antwort gibt die Anfrage frei – höchstens so
        viele pro Tag (und drei je Anschluss), danach warten sie unter „Prüfen“. 0 stellt keine
        Frage mehr.
      </p>
    </Section>
  );
}
