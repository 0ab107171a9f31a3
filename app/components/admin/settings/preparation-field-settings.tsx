import { buttonClass } from "~/components/ui/button";
import { FieldErrors } from "~/components/ui/field";
import { useModal } from "~/components/ui/modal";
import { useHydrated } from "~/components/ui/use-hydrated";
import { DELETE_FIELD_CONFIRM } from "~/lib/settings-form";
import {
  AddButton,
  MoveButtons,
  removeButtonProps,
  type SettingsForm,
  useSettingsList,
} from "./list-controls";
import { initialText, Section, SettingInput, type SettingsFields, smallLabel } from "./section";

const ADD_ID = "add-preparation-field";

/**
 * The preparation fields (a Conform list): edit label/placeholder, move up/down, delete
 * (confirmed), add one (a new row, whose name can be typed until it is saved).
 */
export function PreparationFieldSettings({
  form,
  fields,
}: {
  form: SettingsForm;
  fields: SettingsFields;
}) {
  const hydrated = useHydrated();
  const modal = useModal();
  const list = fields.preparationFields;
  const preparation = useSettingsList(form, list, ADD_ID);
  const { rows, keys, intent, focusIndex, focusAfter } = preparation;
  return (
    <Section
      name="preparationFields"
      title="Preparation-Felder"
      description="Felder, die das Team (oder die KI) für jede Anfrage ausfüllt."
    >
      <ul className="space-y-3">
        {rows.map((row, index) => {
          const key = keys[index];
          const field = row.getFieldset();
          const id = initialText(field.id);
          const name = initialText(field.name) ?? "";
          const label = initialText(field.label) || name || "Neues Feld";
          const focusHere = focusIndex === index;
          return (
            <li
              key={key}
              className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[8rem_1fr_1fr_auto] sm:items-end dark:border-slate-700"
            >
              <input type="hidden" name={field.id.name} value={id ?? ""} />
              {id ? (
                <>
                  <input type="hidden" name={field.name.name} value={name} />
                  <p className="font-mono text-sm">{name}</p>
                </>
              ) : (
                // A new row: its name is typed here; saved, it is fixed like the others.
                <SettingInput
                  meta={field.name}
                  label="Name (nur Buchstaben und Ziffern)"
                  labelClassName={smallLabel}
                  autoFocus={focusHere && intent?.type === "insert"}
                />
              )}
              <SettingInput meta={field.label} label="Label" labelClassName={smallLabel} />
              <SettingInput
                meta={field.placeholder}
                label={id ? "Platzhalter" : "Platzhalter (optional)"}
                labelClassName={smallLabel}
              />
              <div className="flex items-center gap-1">
                <MoveButtons
                  list={preparation}
                  index={index}
                  label={`Feld ${label}`}
                  idPrefix="preparation"
                />
                <button
                  className={buttonClass("danger", "sm")}
                  aria-label={`Feld ${label} löschen`}
                  {...removeButtonProps(preparation, index)}
                  onClick={async (e) => {
                    if (!hydrated) return;
                    e.preventDefault();
                    const button = e.currentTarget;
                    if (
                      await modal.confirm({
                        message: DELETE_FIELD_CONFIRM,
                        title: "Feld löschen",
                        danger: true,
                      })
                    ) {
                      focusAfter(() => document.getElementById(ADD_ID));
                      button.form?.requestSubmit(button);
                    }
                  }}
                >
                  Löschen
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      <AddButton
        list={preparation}
        defaultValue={{ name: "", label: "", placeholder: "" }}
        focus={`[name^="${list.name}["][name$="].name"]:not([type=hidden])`}
      >
        Feld hinzufügen
      </AddButton>
      <FieldErrors errors={list.errors} />
    </Section>
  );
}
