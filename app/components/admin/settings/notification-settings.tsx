import { useContext, useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { CheckboxGroup } from "~/components/ui/checkbox-group";
import { FieldErrors, inputClass } from "~/components/ui/field";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { Configuration } from "~/lib/configuration";
import { label, Section, SettingsErrors } from "./section";

/**
 * The notification part of the settings form: on/off, recipients (admins and external addresses)
 * and whether booked demos are announced too (own setting, default off).
 */
export function NotificationSettings({
  config,
  admins,
  fieldErrors,
  newEmail,
}: {
  config: Configuration;
  admins: { id: number; username: string; email: string }[];
  fieldErrors?: Record<string, string[]>;
  newEmail?: string;
}) {
  const hydrated = useHydrated();
  const [notifications, setNotifications] = useState(config.emailNotifications.enabled);
  const showLists = !hydrated || notifications;
  const props = { newEmail };
  const { focus } = useContext(SettingsErrors);
  return (
    <Section
      name="notifications"
      title="E-Mail-Benachrichtigungen"
      description="Bei jeder neuen Anfrage eine E-Mail mit Zusammenfassung und Link senden."
    >
      <label className="inline-flex items-center gap-2">
        <input
          type="checkbox"
          name="notificationsEnabled"
          defaultChecked={config.emailNotifications.enabled}
          onChange={(e) => setNotifications(e.currentTarget.checked)}
        />
        Benachrichtigungen aktiv
      </label>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name="bookingNotice"
          className="mt-1"
          defaultChecked={config.emailNotifications.bookingNotice}
        />
        <span>
          Auch bei gebuchten Demo-Terminen benachrichtigen
          <span className="block text-xs text-slate-500 dark:text-slate-400">
            Standardmäßig aus: Benachrichtigungen gehen nur bei neuen Anfragen raus.
          </span>
        </span>
      </label>
      {showLists ? (
        <div className="space-y-4">
          {!hydrated ? (
            <p className="text-xs text-slate-500 dark:text-slate-400">
              Die Listen gelten nur, wenn Benachrichtigungen aktiv sind.
            </p>
          ) : null}
          <CheckboxGroup
            legend="Admins"
            name="notifyAdmin"
            options={admins.map((a) => ({
              value: a.id,
              label: (
                <>
                  {a.username}{" "}
                  <span className="text-slate-500 dark:text-slate-400">({a.email})</span>
                </>
              ),
              checked: config.emailNotifications.adminEmails.some((x) => x.id === a.id),
            }))}
          />
          <div>
            <p className={label}>Externe Adressen</p>
            <ul className="mb-2 flex flex-wrap gap-2">
              {config.emailNotifications.externalEmails.map((email) => (
                <li
                  key={email}
                  className="inline-flex items-center gap-1 rounded-full bg-slate-100 py-1 pl-3 pr-1 text-sm dark:bg-slate-800"
                >
                  <input type="hidden" name="externalEmail" value={email} />
                  {email}
                  <button
                    type="submit"
                    name="intent"
                    value={`remove-email:${email}`}
                    className="rounded-full px-2 text-slate-500 dark:text-slate-400 hover:bg-slate-200 dark:hover:bg-slate-700"
                    aria-label={`${email} entfernen`}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
            <div className="flex flex-wrap items-start gap-2">
              <label htmlFor="newEmail" className="sr-only">
                Externe E-Mail-Adresse
              </label>
              <input
                id="newEmail"
                name="newEmail"
                type="text"
                inputMode="email"
                placeholder="name@firma.de"
                defaultValue={props.newEmail}
                className={`${inputClass} max-w-xs`}
                aria-invalid={fieldErrors?.newEmail ? true : undefined}
                aria-describedby={fieldErrors?.newEmail ? "newEmail-error" : undefined}
                autoFocus={focus === "newEmail"}
                onKeyDown={(e) => {
                  if (e.key === "Enter") {
                    e.preventDefault();
                    document.getElementById("add-email")?.click();
                  }
                }}
              />
              <button
                id="add-email"
                type="submit"
                name="intent"
                value="add-email"
                className={buttonClass("secondary", "sm")}
              >
                Hinzufügen
              </button>
            </div>
            <FieldErrors id="newEmail-error" errors={fieldErrors?.newEmail} />
          </div>
        </div>
      ) : (
        <>
          {config.emailNotifications.adminEmails.map((a) => (
            <input key={a.id} type="hidden" name="notifyAdmin" value={a.id} />
          ))}
          {config.emailNotifications.externalEmails.map((email) => (
            <input key={email} type="hidden" name="externalEmail" value={email} />
          ))}
        </>
      )}
    </Section>
  );
}
