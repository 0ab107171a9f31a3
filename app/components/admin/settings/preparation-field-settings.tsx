import { buttonClass } from "~/components/ui/button";
import { FieldErrors } from "~/components/ui/field";
import { useModal } from "~/components/ui/modal";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { Configuration } from "~/lib/configuration";
import { DELETE_FIELD_CONFIRM } from "~/lib/settings-form";
import { Section, SettingInput, smallLabel } from "./section";

export type NewFieldDraft = { name: string; label: string; placeholder: string };

/** The preparation fields: edit label/placeholder, delete (confirmed), add one. */
export function PreparationFieldSettings({
  config,
  fieldErrors,
  newField,
}: {
  config: Configuration;
  fieldErrors?: Record<string, string[]>;
  newField?: NewFieldDraft;
}) {
  const hydrated = useHydrated();
  const modal = useModal();
  return (
    <Section
      name="preparationFields"
      title="Preparation-Felder"
      description="Felder, die das Team (oder die KI) für jede Anfrage ausfüllt."
    >
      <ul className="space-y-3">
        {config.preparationFields.map((f) => (
          <li
            key={f.id}
            className="grid gap-2 rounded-lg border border-slate-200 p-3 sm:grid-cols-[8rem_1fr_1fr_auto] sm:items-end dark:border-slate-700"
          >
            <input type="hidden" name="fieldId" value={f.id} />
            <input type="hidden" name="fieldName" value={f.name} />
            <p className="font-mono text-sm">{f.name}</p>
            <SmallInputs
              inputs={[
                [`fieldLabel-${f.id}`, "fieldLabel", "Label", f.label],
                [`fieldPlaceholder-${f.id}`, "fieldPlaceholder", "Platzhalter", f.placeholder],
              ]}
            />
            <button
              type="submit"
              name="intent"
              value={`delete-field:${f.id}`}
              className={buttonClass("danger", "sm")}
              aria-label={`Feld ${f.label} löschen`}
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
                  button.form?.requestSubmit(button);
                }
              }}
            >
              Löschen
            </button>
          </li>
        ))}
      </ul>
      <div className="grid gap-2 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
        <SmallInputs
          inputs={[
            ["newFieldName", "newFieldName", "Name (nur Buchstaben und Ziffern)", newField?.name],
            ["newFieldLabel", "newFieldLabel", "Label", newField?.label],
            [
              "newFieldPlaceholder",
              "newFieldPlaceholder",
              "Platzhalter (optional)",
              newField?.placeholder,
            ],
          ]}
        />
        <button
          type="submit"
          name="intent"
          value="add-field"
          className={buttonClass("secondary", "sm")}
        >
          Feld hinzufügen
        </button>
      </div>
      <FieldErrors errors={fieldErrors?.newField ?? fieldErrors?.preparationFields} />
    </Section>
  );
}

type SmallInput = readonly [id: string, name: string, label: string, value: string | undefined];

/** The small-labelled text inputs of the field rows and of the new-field row. */
function SmallInputs({ inputs }: { inputs: readonly SmallInput[] }) {
  return (
    <>
      {inputs.map(([id, name, text, value]) => (
        <SettingInput
          key={id}
          id={id}
          name={name}
          label={text}
          labelClassName={smallLabel}
          defaultValue={value}
        />
      ))}
    </>
  );
}
