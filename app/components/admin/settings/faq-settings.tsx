import { FieldErrors, inputClass } from "~/components/ui/field";
import {
  AddButton,
  MoveButtons,
  RemoveButton,
  type SettingsForm,
  useSettingsList,
} from "./list-controls";
import {
  initialText,
  SettingInput,
  type SettingsField,
  type SettingsFields,
  smallLabel,
  useFieldErrors,
} from "./section";

type FaqList = ReturnType<SettingsFields["branding"]["getFieldset"]>["faq"];

const ADD_ID = "add-faq-entry";
const HEADING_ID = "faq-heading";

function AnswerInput({ meta, id }: { meta: SettingsField; id: string }) {
  const { errors, autoFocus } = useFieldErrors(meta);
  return (
    <div>
      <label htmlFor={id} className={smallLabel}>
        Antwort
      </label>
      <textarea
        key={meta.key}
        id={id}
        name={meta.name}
        rows={3}
        defaultValue={initialText(meta)}
        className={inputClass}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${id}-error` : undefined}
        autoFocus={autoFocus}
      />
      <FieldErrors id={`${id}-error`} errors={errors} />
    </div>
  );
}

/**
 * The landing page's questions (a Conform list, like the preparation fields): edit, move, remove,
 * add; without JS the server applies the buttons and shows the form again.
 */
export function FaqSettings({ form, list }: { form: SettingsForm; list: FaqList }) {
  const faq = useSettingsList(form, list, ADD_ID, "faq-row");
  const { rows, keys, intent, focusIndex } = faq;
  // After a removal the neighbouring question takes the focus (the next one, else the one
  // before), or the list's heading once it is empty: with JS once the row is gone, without JS
  // on the page the server answers with.
  const removedAt = intent?.type === "remove" ? intent.payload.index : undefined;
  const focusAfterRemoval =
    removedAt === undefined ? undefined : Math.min(removedAt, rows.length - 1);
  const neighbourOf = (index: number) => () =>
    document.getElementById(`faq-${Math.min(index, rows.length - 2)}-question`) ??
    document.getElementById(HEADING_ID);
  return (
    <fieldset className="space-y-3">
      <legend
        id={HEADING_ID}
        tabIndex={-1}
        autoFocus={focusAfterRemoval === -1}
        className="text-sm font-medium"
      >
        Häufige Fragen ({rows.length})
      </legend>
      <ol className="space-y-3">
        {rows.map((row, index) => {
          const entry = row.getFieldset();
          const question = initialText(entry.question) || `Frage ${index + 1}`;
          return (
            <li
              key={keys[index]}
              className="grid gap-2 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
            >
              <SettingInput
                meta={entry.question}
                id={`faq-${index}-question`}
                label={`Frage ${index + 1}`}
                labelClassName={smallLabel}
                autoFocus={
                  (focusIndex === index && intent?.type === "insert") || focusAfterRemoval === index
                }
              />
              <AnswerInput meta={entry.answer} id={`faq-${index}-answer`} />
              <div className="flex items-center justify-end gap-1">
                <MoveButtons list={faq} index={index} label={`Frage ${index + 1}`} idPrefix="faq" />
                <RemoveButton
                  list={faq}
                  index={index}
                  label={`Frage „${question}“ entfernen`}
                  variant="danger"
                  focusAfter={neighbourOf(index)}
                />
              </div>
            </li>
          );
        })}
      </ol>
      <AddButton
        list={faq}
        defaultValue={{ question: "", answer: "" }}
        focus={`[name^="${list.name}["][name$="].question"]`}
        focusOnRemove={false}
      >
        Frage hinzufügen
      </AddButton>
      <FieldErrors errors={list.errors} />
    </fieldset>
  );
}
