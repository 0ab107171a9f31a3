import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { Form, useNavigation } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { useToast } from "~/components/ui/toast";
import { useHydrated } from "~/components/ui/use-hydrated";
import { brandingDefaultsFor } from "~/lib/branding";
import type { Configuration } from "~/lib/configuration";
import { isNumberSettingPath, settingRangeMessage } from "~/lib/setting-ranges";
import {
  SETTINGS_NOT_SAVED,
  type SettingsFormInput,
  SettingsFormSchema,
  type SettingsFormValue,
  settingsFormDefaults,
} from "~/lib/settings-form";
import type { BusyFeedStatus } from "~/lib/team-calendar";
import { AccessibilitySettings } from "./accessibility-settings";
import { AppointmentSettings, type EventTypeOption } from "./appointment-settings";
import { AssignmentSettings } from "./assignment-settings";
import { BannerSettings } from "./banner-settings";
import { BrandingSettings } from "./branding-settings";
import { EmbedSettings } from "./embed-settings";
import { MailIdentitySettings } from "./mail-identity-settings";
import { NotificationSettings } from "./notification-settings";
import { PipelineSettings } from "./pipeline-settings";
import { PreparationFieldSettings } from "./preparation-field-settings";
import { PrivacySettings } from "./privacy-settings";
import { SettingsErrors } from "./section";
import { SETTINGS_INDEX_ID, useHasSettingsIndex } from "./settings-index";
import { SpamSettings } from "./spam-settings";
import { SystemPromptSettings } from "./system-prompt-settings";
import { TeamCalendarSettings } from "./team-calendar-settings";
import { UploadSettings } from "./upload-settings";
import { useMessagesAboveBar } from "./use-messages-above-bar";
import { useUnsavedChanges } from "./use-unsaved-changes";

type Admin = { id: number; username: string; email: string };

export type SettingsFormProps = {
  config: Configuration;
  admins: Admin[];
  eventTypes: EventTypeOption[];
  action: string;
  /** The server's answer to the last post (Conform's result): the form shown again. */
  lastResult?: SubmissionResult<string[]> | null;
  error?: string;
  message?: string;
  /** The field a refused post names first: focused, so it is scrolled into view. */
  focus?: string;
  /** PRIVACY_URL and IMPRINT_URL, shown where the brand's links are left empty. */
  legalDefaults?: { privacyUrl: string; imprintUrl: string };
  /** APP_URL, for the embed snippet (ADR 283). */
  appUrl?: string;
  /** The team calendar's feeds: age of their cache and last error (ADR 266). */
  busyFeeds: BusyFeedStatus[];
  /** Whether the page has the form "Jetzt abrufen" posts (team-calendar-links.tsx). */
  feedsRefreshable?: boolean;
  /** The accessibility feedback waiting in its list (the card links to it). */
  accessibilityFeedback?: { total: number };
};

/**
 * The whole configuration in one Conform form (`SettingsFormSchema`, the same on the server) with
 * one save button; its lists change by Conform's intents, with JS in place, without JS through
 * the server. Each card is its own component in this folder; a new card also adds its marker to
 * SETTINGS_SECTIONS and its fields to SettingsFormSchema (lib/settings-form.ts).
 *
 * Fields scroll into view above the sticky save bar (`scroll-margin-bottom`, app.css
 * `.settings-form`), whether the browser's own check or the server's answer focuses them; with JS
 * the browser's message is the German one of the schema and it also stays under the field.
 */
export function SettingsForm(props: SettingsFormProps) {
  const { config } = props;
  const saves = useSaveCount(props);
  // Webhooks have their own forms: saving one must not reset what is typed here. A save starts
  // the form again from what is stored, also when that did not change (the server trimmed a text).
  const key = useMemo(
    () => JSON.stringify({ ...config, webhooks: undefined, saves }),
    [config, saves],
  );
  return <SettingsFormBody key={key} {...props} />;
}

/** Counts this form's successful saves (with JS: a save post answered by a redirect). */
function useSaveCount({ lastResult, error }: SettingsFormProps) {
  const navigation = useNavigation();
  const [saves, setSaves] = useState(0);
  const pending = useRef(false);
  const saving = navigation.state !== "idle" && navigation.formData?.get("intent") === "save";
  useEffect(() => {
    if (saving) pending.current = true;
    if (saving || navigation.state !== "idle" || !pending.current) return;
    pending.current = false;
    // A refused save is answered with the form again (lastResult, error): that stays as typed.
    if (!lastResult && !error) setSaves((n) => n + 1);
  }, [saving, navigation.state, lastResult, error]);
  return saves;
}

function SettingsFormBody(props: SettingsFormProps) {
  const navigation = useNavigation();
  const hydrated = useHydrated();
  const toast = useToast();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const [form, fields] = useForm<SettingsFormInput, SettingsFormValue>({
    id: "settings",
    defaultValue: settingsFormDefaults(props.config),
    lastResult: navigation.state === "idle" ? props.lastResult : null,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate({ formData }) {
      const submission = parseWithZod(formData, { schema: SettingsFormSchema });
      // A refused save says so like the server's answer does (list edits and blur checks do not).
      if (!formData.has("__intent__") && submission.status === "error") {
        toast.error(SETTINGS_NOT_SAVED);
      }
      return submission;
    },
  });
  const formRef = useRef<HTMLFormElement>(null);
  const barRef = useRef<HTMLDivElement>(null);
  const hasIndex = useHasSettingsIndex();
  const { dirty, check } = useUnsavedChanges(formRef, Boolean(props.lastResult));
  // List edits change the form without an input event: compare once a list has changed.
  const scheduling = fields.scheduling.getFieldset();
  const lists = [
    fields.preparationFields,
    fields.emailNotifications.getFieldset().externalEmails,
    fields.spam.getFieldset().blocklist,
    fields.branding.getFieldset().faq,
    fields.embed.getFieldset().allowedOrigins,
    fields.teamCalendar.getFieldset().busyFeeds,
    fields.pipeline.getFieldset().stages,
    fields.pipeline.getFieldset().lostReasons,
    scheduling.blockedDays,
    ...Object.values(scheduling.weeklyHours.getFieldset()),
  ]
    .map((list) =>
      list
        .getFieldList()
        .map((row) => row.key)
        .join(","),
    )
    .join("|");
  // biome-ignore lint/correctness/useExhaustiveDependencies: `lists` is the trigger, not an input
  useEffect(() => check(), [check, lists]);
  // The browser refused a field (JS only): its German message under it until it is edited.
  const [browserErrors, setBrowserErrors] = useState<Record<string, string[]>>({});
  const errors = useMemo(
    () => ({ fieldErrors: browserErrors, focus: props.focus, intent: props.lastResult?.intent }),
    [browserErrors, props.focus, props.lastResult],
  );
  // A message that appears under a field (a check on leaving it) never stays behind the bar.
  useMessagesAboveBar(formRef, barRef, JSON.stringify([form.allErrors, browserErrors]));

  // With JS, the answer re-renders this form in place: focus the refused field like autoFocus does.
  useEffect(() => {
    if (!props.focus) return;
    const field = formRef.current?.elements.namedItem(props.focus);
    if (field instanceof HTMLElement) field.focus();
  }, [props.focus]);

  const onInvalid = (event: FormEvent<HTMLFormElement>) => {
    const field = event.target;
    if (!(field instanceof HTMLInputElement) || !field.name) return;
    const message = isNumberSettingPath(field.name)
      ? settingRangeMessage(field.name)
      : field.validationMessage;
    // The bubble the browser shows next reads this: German, like the server's message.
    if (field.validationMessage !== message) field.setCustomValidity(message);
    setBrowserErrors((all) => ({ ...all, [field.name]: [message] }));
  };
  const onInput = (event: FormEvent<HTMLFormElement>) => {
    const field = event.target;
    if (field instanceof HTMLInputElement && field.name) {
      field.setCustomValidity("");
      if (browserErrors[field.name]) setBrowserErrors(({ [field.name]: _gone, ...rest }) => rest);
    }
    check();
  };

  return (
    <SettingsErrors.Provider value={errors}>
      <Form
        ref={formRef}
        method="post"
        action={props.action}
        // A save answers with a redirect back to this page: the admin stays at the card they
        // edited (the toast confirms the save), not at the top of a long page.
        preventScrollReset
        {...getFormProps(form)}
        // The browser's own check stays on (without JS it is the first one): see onInvalid.
        noValidate={false}
        className="settings-form space-y-5"
        onInvalidCapture={onInvalid}
        onInput={onInput}
        onChange={check}
      >
        {/* Enter in a text field submits this first button: save (not "add"). */}
        <button
          type="submit"
          name="intent"
          value="save"
          className="sr-only"
          tabIndex={-1}
          aria-hidden="true"
        >
          Speichern
        </button>
        {props.message ? <Alert tone="info">{props.message}</Alert> : null}
        {props.error ? <Alert>{props.error}</Alert> : null}

        <SystemPromptSettings fields={fields} />
        <NotificationSettings form={form} fields={fields} admins={props.admins} />
        <BannerSettings fields={fields} />
        <UploadSettings fields={fields} />
        <PreparationFieldSettings form={form} fields={fields} />
        <PipelineSettings form={form} fields={fields} />
        <AppointmentSettings form={form} fields={fields} eventTypes={props.eventTypes} />
        <TeamCalendarSettings
          form={form}
          fields={fields}
          feeds={props.busyFeeds}
          refreshable={props.feedsRefreshable}
        />
        <PrivacySettings fields={fields} />
        <SpamSettings form={form} fields={fields} />
        <BrandingSettings
          form={form}
          fields={fields}
          legalDefaults={props.legalDefaults}
          defaults={brandingDefaultsFor(props.config.pipeline.promises)}
        />
        <MailIdentitySettings fields={fields} brandName={props.config.branding.name} />
        <EmbedSettings form={form} fields={fields} appUrl={props.appUrl} />
        <AssignmentSettings fields={fields} admins={props.admins} />
        <AccessibilitySettings form={form} fields={fields} feedback={props.accessibilityFeedback} />

        <div
          ref={barRef}
          className="sticky bottom-0 flex flex-wrap items-center justify-end gap-3 border-t border-slate-200 bg-slate-50/90 py-3 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90"
          data-save-bar=""
        >
          {hasIndex ? (
            // Below 1024 px the index follows the cards: in reach from every card through here.
            <a
              href={`#${SETTINGS_INDEX_ID}`}
              className={`${buttonClass("ghost", "sm")} mr-auto lg:hidden`}
            >
              Abschnitte
            </a>
          ) : null}
          <p aria-live="polite" className="text-sm text-amber-800 dark:text-amber-200">
            {hydrated && dirty ? "Ungespeicherte Änderungen" : ""}
          </p>
          <Button type="submit" name="intent" value="save" disabled={saving}>
            {saving ? "Speichert …" : "Konfiguration speichern"}
          </Button>
        </div>
      </Form>
    </SettingsErrors.Provider>
  );
}
