import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { FieldErrors, inputClass } from "~/components/ui/field";
import {
  focusedIndex,
  type SettingsForm,
  useFocusAfterListChange,
  useListIntent,
} from "./list-controls";
import {
  initialText,
  label,
  NumberSettings,
  Section,
  type SettingsField,
  type SettingsFields,
  useFieldErrors,
} from "./section";

const ADD_ID = "add-blocklist-entry";
const HINT_ID = "blocklist-hint";

/**
 * Spam defence and costs (issue 26): the blocklist (a Conform list, one entry a row, checked by
 * lib/blocklist.ts on both sides), how long the quarantine keeps requests and the daily AI budget.
 */
export function SpamSettings({ form, fields }: { form: SettingsForm; fields: SettingsFields }) {
  const spam = fields.spam.getFieldset();
  const ai = fields.ai.getFieldset();
  const list = spam.blocklist;
  const rows = list.getFieldList();
  const keys = rows.map((row, index) => row.key ?? `row-${index}`);
  const focusAfter = useFocusAfterListChange(keys);
  const intent = useListIntent(list.name);
  const focusIndex = focusedIndex(intent, rows.length);
  const add = () =>
    focusAfter(() => {
      const inputs = document.querySelectorAll<HTMLInputElement>(`[name^="${list.name}["]`);
      return inputs[inputs.length - 1] ?? null;
    });
  return (
    <Section
      name="spam"
      title="Spam-Schutz und Kosten"
      description="Sperrliste, Aufbewahrung verdächtiger Anfragen und das tägliche KI-Budget."
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
        , bis Sie sie freigeben oder löschen.
      </p>
      <div>
        <p className={label} id="blocklist-label">
          Sperrliste
        </p>
        <p id={HINT_ID} className="mb-2 text-xs text-slate-500 dark:text-slate-400">
          Ein Eintrag pro Zeile: E-Mail-Adresse, Domain (* als Platzhalter, z. B. *.example.com),
          IP-Adresse oder CIDR-Bereich (z. B. 192.0.2.0/24). Treffer kommen immer in die Prüfung.
        </p>
        <ul className="mb-2 space-y-2" aria-labelledby="blocklist-label">
          {rows.map((row, index) => (
            <BlocklistRow
              key={keys[index]}
              meta={row}
              number={index + 1}
              autoFocus={focusIndex === index}
              removeProps={form.remove.getButtonProps({ name: list.name, index })}
              onEnter={() => document.getElementById(ADD_ID)?.click()}
              onRemove={() => focusAfter(() => document.getElementById(ADD_ID))}
            />
          ))}
        </ul>
        <button
          id={ADD_ID}
          className={buttonClass("secondary", "sm")}
          autoFocus={intent?.type === "remove"}
          {...form.insert.getButtonProps({ name: list.name, defaultValue: "" })}
          onClick={add}
        >
          Eintrag hinzufügen
        </button>
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
            [ai.dailyLimit, "aiDailyLimit", "KI-Aufrufe pro Tag höchstens"],
          ]}
        />
      </div>
      <p className="text-xs text-slate-500 dark:text-slate-400">
        Über dem KI-Budget warten automatische Zusammenfassungen auf den nächsten Tag, manuelle
        KI-Aktionen werden abgelehnt; 0 schaltet KI-Aufrufe ab.
      </p>
    </Section>
  );
}

/** One entry: its input (Enter adds the next one, with JS) and its remove button. */
function BlocklistRow({
  meta,
  number,
  autoFocus,
  removeProps,
  onEnter,
  onRemove,
}: {
  meta: SettingsField;
  number: number;
  autoFocus: boolean;
  removeProps: ReturnType<SettingsForm["remove"]["getButtonProps"]>;
  onEnter: () => void;
  onRemove: () => void;
}) {
  const { errors, autoFocus: refused } = useFieldErrors(meta);
  // The typed entry names the remove button (with JS as it is typed).
  const value = typeof meta.value === "string" ? meta.value : initialText(meta);
  const describedBy = errors?.length ? `${meta.errorId} ${HINT_ID}` : HINT_ID;
  return (
    <li>
      <div className="flex items-center gap-2">
        <label htmlFor={meta.id} className="sr-only">
          Sperrlisten-Eintrag {number}
        </label>
        <input
          key={meta.key}
          id={meta.id}
          name={meta.name}
          type="text"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          placeholder="*@spam.example oder 192.0.2.0/24"
          defaultValue={initialText(meta)}
          className={`${inputClass} max-w-sm`}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={describedBy}
          autoFocus={autoFocus || refused}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              onEnter();
            }
          }}
        />
        <button
          className="shrink-0 rounded-full px-2 text-slate-500 hover:bg-slate-200 dark:text-slate-400 dark:hover:bg-slate-700"
          aria-label={`${value || "Leeren Eintrag"} entfernen`}
          {...removeProps}
          onClick={onRemove}
        >
          ×
        </button>
      </div>
      <FieldErrors id={meta.errorId} errors={errors} />
    </li>
  );
}
