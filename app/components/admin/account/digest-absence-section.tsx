import { getInputProps, type SubmissionResult } from "@conform-to/react";
import { useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert, FieldErrors, inputClass } from "~/components/ui/field";
import { FocusOnArrival } from "~/components/ui/focus-on-arrival";
import { ConformForm, useConformForm } from "~/components/ui/form";
import { type WorkSettings, WorkSettingsSchema } from "~/lib/work-settings";
import { AccountSection } from "./account-section";

export type WorkSettingsReply = { result?: SubmissionResult<string[]>; message?: string };

/**
 * "Morgenübersicht und Abwesenheit" on /admin/account (ADRs 352, 353): the 07:30 mail on or off,
 * and an absence from–to (new requests of the fair assignment skip the admin then; no digest).
 * One Conform form with the schema of `PUT /api/admin/account/preferences`; works without JS.
 */
export function DigestAbsenceSection({
  settings,
  reply,
  mailOn,
}: {
  settings: WorkSettings;
  reply?: WorkSettingsReply;
  mailOn: boolean;
}) {
  const submitting = useNavigation().state === "submitting";
  const [form, fields] = useConformForm(WorkSettingsSchema, reply?.result, {
    id: "work-settings",
    defaultValue: {
      morningDigest: settings.morningDigest,
      absentFrom: settings.absentFrom ?? "",
      absentUntil: settings.absentUntil ?? "",
    },
  });
  const digest = getInputProps(fields.morningDigest, { type: "checkbox" });
  return (
    <AccountSection
      id="morgenuebersicht"
      title="Morgenübersicht und Abwesenheit"
      description="Werktags um 7:30 Uhr eine E-Mail mit Ihren fälligen Wiedervorlagen, neuen Anfragen für Sie und Anfragen zur Prüfung."
    >
      {reply?.message ? (
        <FocusOnArrival arrival={reply}>
          <Alert tone="success">{reply.message}</Alert>
        </FocusOnArrival>
      ) : null}
      <ConformForm form={form} action="/admin/account">
        <input type="hidden" name="intent" value="work-settings" />
        <label className="flex items-start gap-2 text-sm">
          <input {...digest} key={digest.key} className="mt-1" />
          <span>
            Morgenübersicht per E-Mail erhalten
            <span className="block text-xs text-slate-600 dark:text-slate-400">
              {mailOn
                ? "Nur an Tagen, an denen etwas fällig ist."
                : "Ohne E-Mail-Versand steht die Übersicht als Karte „Heute“ auf der Übersicht."}
            </span>
          </span>
        </label>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium">Abwesend (z. B. Urlaub)</legend>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            In dieser Zeit bekommen Sie bei der fairen Verteilung keine neuen Anfragen und keine
            Morgenübersicht. Beide Tage zählen mit; leer lassen, wenn Sie nicht abwesend sind.
          </p>
          <div className="flex flex-wrap gap-4">
            {(
              [
                [fields.absentFrom, "Von"],
                [fields.absentUntil, "Bis"],
              ] as const
            ).map(([meta, label]) => {
              const { key, ...input } = getInputProps(meta, { type: "date" });
              return (
                <div key={meta.name}>
                  <label htmlFor={meta.id} className="mb-1 block text-sm font-medium">
                    {label}
                  </label>
                  <input key={key} {...input} className={`${inputClass} w-auto`} />
                  <FieldErrors id={meta.errorId} errors={meta.errors} />
                </div>
              );
            })}
          </div>
        </fieldset>
        <Button type="submit" disabled={submitting}>
          {submitting ? "Wird gespeichert..." : "Speichern"}
        </Button>
      </ConformForm>
    </AccountSection>
  );
}
