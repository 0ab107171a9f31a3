import { useState } from "react";
import { CheckboxGroup } from "~/components/ui/checkbox-group";
import { FieldErrors } from "~/components/ui/field";
import { useHydrated } from "~/components/ui/use-hydrated";
import { AddButton, type SettingsForm, TextListRow, useSettingsList } from "./list-controls";
import { initialList, isChecked, label, Section, type SettingsFields } from "./section";

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
  const emails = useSettingsList(form, list, ADD_ID);
  const rows = emails.rows;
  // Hidden while off (with JS), but still posted; shown again when an address is refused.
  const showLists = !hydrated || notifications || rows.some((row) => row.errors?.length);
  const adminIds = initialList(notification.adminIds);
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
              <TextListRow
                key={emails.keys[index]}
                list={emails}
                meta={row}
                index={index}
                label="Externe E-Mail-Adresse"
                emptyName="Leere Adresse"
                rowClassName="flex flex-wrap items-center gap-2"
                removeClassName="rounded-full px-2 text-slate-500 dark:text-slate-400 hover:bg-slate-200 dark:hover:bg-slate-700"
                inputProps={{
                  inputMode: "email",
                  placeholder: "name@firma.de",
                  className: "max-w-xs",
                }}
              />
            ))}
          </ul>
          <AddButton list={emails} defaultValue="" focus={`[name^="${list.name}["]`}>
            Hinzufügen
          </AddButton>
          <FieldErrors errors={list.errors} />
        </div>
      </div>
    </Section>
  );
}
