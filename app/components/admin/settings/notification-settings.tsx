import { useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { CheckboxGroup } from "~/components/ui/checkbox-group";
import { FieldErrors, inputClass } from "~/components/ui/field";
import { useHydrated } from "~/components/ui/use-hydrated";
import {
  focusedIndex,
  type SettingsForm,
  useFocusAfterListChange,
  useListIntent,
} from "./list-controls";
import {
  initialList,
  initialText,
  isChecked,
  label,
  Section,
  type SettingsField,
  type SettingsFields,
  useFieldErrors,
} from "./section";

const ADD_ID = "add-email";

/**
 * The notification part of the settings form: on/off, recipients (admins and external addresses,
 * a Conform list) and whether booked demos are announced too (own setting, default off).
 */
export function NotificationSettings({
  form,
  fields,
  admins,
}: {
  form: SettingsForm;
  fields: SettingsFields;
  admins: { id: number; username: string; email: string }[];
}) {
  const hydrated = useHydrated();
  const notification = fields.emailNotifications.getFieldset();
  const [notifications, setNotifications] = useState(isChecked(notification.enabled));
  const list = notification.externalEmails;
  const rows = list.getFieldList();
  const keys = rows.map((row, index) => row.key ?? `row-${index}`);
  const focusAfter = useFocusAfterListChange(keys);
  const intent = useListIntent(list.name);
  const focusIndex = focusedIndex(intent, rows.length);
  // Hidden while off (with JS), but still posted; shown again when an address is refused.
  const showLists = !hydrated || notifications || rows.some((row) => row.errors?.length);
  const adminIds = initialList(notification.adminIds);
  const add = () =>
    focusAfter(() => {
      const inputs = document.querySelectorAll<HTMLInputElement>(`[name^="${list.name}["]`);
      return inputs[inputs.length - 1] ?? null;
    });
  return (
    <Section
      name="notifications"
      title="E-Mail-Benachrichtigungen"
      description="Bei jeder neuen Anfrage eine E-Mail mit Zusammenfassung und Link senden."
    >
      <label className="inline-flex items-center gap-2">
        <input
          key={notification.enabled.key}
          type="checkbox"
          name={notification.enabled.name}
          defaultChecked={isChecked(notification.enabled)}
          onChange={(e) => setNotifications(e.currentTarget.checked)}
        />
        Benachrichtigungen aktiv
      </label>
      <label className="flex items-start gap-2 text-sm">
        <input
          key={notification.bookingNotice.key}
          type="checkbox"
          name={notification.bookingNotice.name}
          className="mt-1"
          defaultChecked={isChecked(notification.bookingNotice)}
        />
        <span>
          Auch bei gebuchten Demo-Terminen benachrichtigen
          <span className="block text-xs text-slate-500 dark:text-slate-400">
            Standardmäßig aus: Benachrichtigungen gehen nur bei neuen Anfragen raus.
          </span>
        </span>
      </label>
      <div className="space-y-4" hidden={!showLists}>
        {!hydrated ? (
          <p className="text-xs text-slate-500 dark:text-slate-400">
            Die Listen gelten nur, wenn Benachrichtigungen aktiv sind.
          </p>
        ) : null}
        <CheckboxGroup
          legend="Admins"
          name={notification.adminIds.name}
          options={admins.map((a) => ({
            value: a.id,
            label: (
              <>
                {a.username} <span className="text-slate-500 dark:text-slate-400">({a.email})</span>
              </>
            ),
            checked: adminIds.includes(String(a.id)),
          }))}
        />
        <div>
          <p className={label}>Externe Adressen</p>
          <ul className="mb-2 space-y-2">
            {rows.map((row, index) => (
              <EmailRow
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
            Hinzufügen
          </button>
          <FieldErrors errors={list.errors} />
        </div>
      </div>
    </Section>
  );
}

/** One external address: its input (Enter adds the next one, with JS) and its remove button. */
function EmailRow({
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
  // The typed address names the remove button (with JS as it is typed).
  const value = typeof meta.value === "string" ? meta.value : initialText(meta);
  return (
    <li>
      <div className="flex flex-wrap items-center gap-2">
        <label htmlFor={meta.id} className="sr-only">
          Externe E-Mail-Adresse {number}
        </label>
        <input
          key={meta.key}
          id={meta.id}
          name={meta.name}
          type="text"
          inputMode="email"
          placeholder="name@firma.de"
          defaultValue={initialText(meta)}
          className={`${inputClass} max-w-xs`}
          aria-invalid={errors?.length ? true : undefined}
          aria-describedby={errors?.length ? meta.errorId : undefined}
          autoFocus={autoFocus || refused}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              onEnter();
            }
          }}
        />
        <button
          className="rounded-full px-2 text-slate-500 dark:text-slate-400 hover:bg-slate-200 dark:hover:bg-slate-700"
          aria-label={`${value || "Leere Adresse"} entfernen`}
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
