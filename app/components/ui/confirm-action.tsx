import { type ReactNode, useId } from "react";
import { Form, Link, useFetcher, useLocation, useNavigation, useSubmit } from "react-router";
import { isConfirmationStep } from "~/lib/confirmation";
import { backPath } from "~/lib/return-path";
import { buttonClass } from "./button";
import { useModal } from "./modal";
import { HiddenFields } from "./post-button";

type Variant = "primary" | "secondary" | "danger" | "ghost";

export type ConfirmActionProps = {
  /** Posted as hidden fields, e.g. `{ intent: 'delete', id: '3' }`. */
  fields: Record<string, string>;
  /** Extra form content for the no-JS post (e.g. a public form's `<Honeypot />`). */
  children?: ReactNode;
  message: string;
  /** Modal title; default 'Bestätigung'. */
  title?: string;
  /** Text of the button that opens the confirmation (e.g. 'Löschen'). */
  label: ReactNode;
  /** Label of the modal's confirm button; default 'Bestätigen' (spec). */
  confirmLabel?: string;
  variant?: Variant;
  size?: "sm" | "md";
  /** Route to post to; default the current route's action. */
  action?: string;
  /** Replaces the button's classes. */
  className?: string;
  /** Accessible name when the label is an icon. */
  "aria-label"?: string;
  disabled?: boolean;
  /** 'navigation' (default) submits like a form; 'fetcher' stays on the page (no history entry). */
  mode?: "navigation" | "fetcher";
  /** With mode 'fetcher': the key, so the page can read the result with `useFetcher({ key })`. */
  fetcherKey?: string;
};

/**
 * A button for destructive actions. With JS it asks through the modal and posts `fields` plus
 * `confirmed=1`; without JS the form posts without `confirmed` and the action answers with
 * `requireConfirmation(...)`, which the page shows through `<ConfirmationStep>`.
 */
export function ConfirmAction({
  fields,
  message,
  title,
  label,
  confirmLabel,
  variant = "danger",
  size = "sm",
  action,
  className,
  "aria-label": ariaLabel,
  disabled,
  mode = "navigation",
  fetcherKey,
  children,
}: ConfirmActionProps) {
  const modal = useModal();
  const submit = useSubmit();
  const fetcher = useFetcher({ key: fetcherKey });
  const navigation = useNavigation();
  const FormComponent = mode === "fetcher" ? fetcher.Form : Form;
  const busy =
    mode === "fetcher"
      ? fetcher.state !== "idle"
      : navigation.state === "submitting" &&
        Object.entries(fields).every(([k, v]) => navigation.formData?.get(k) === v);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const ok = await modal.confirm({
      message,
      title,
      confirmLabel,
      danger: variant === "danger",
    });
    if (!ok) return;
    const payload = { ...fields, confirmed: "1" };
    if (mode === "fetcher") await fetcher.submit(payload, { method: "post", action });
    else await submit(payload, { method: "post", action });
  }

  return (
    <FormComponent method="post" action={action} onSubmit={onSubmit} className="inline">
      <HiddenFields fields={fields} />
      {children}
      <button
        type="submit"
        className={className ?? buttonClass(variant, size)}
        aria-label={ariaLabel}
        disabled={disabled || busy}
      >
        {label}
      </button>
    </FormComponent>
  );
}

/**
 * The no-JS confirmation step: render `<ConfirmationStep data={actionData} />` near the top of the
 * page. Shows the message, a form re-posting the same fields with `confirmed=1`, and 'Abbrechen'
 * (a link back to the page). Renders nothing unless the action answered with a confirmation.
 */
export function ConfirmationStep({ data, action }: { data: unknown; action?: string }) {
  const titleId = useId();
  const location = useLocation();
  if (!isConfirmationStep(data)) return null;
  const { title, message, confirmLabel, fields } = data.confirmation;
  const back = backPath(location.pathname, location.search);
  return (
    <section
      aria-labelledby={titleId}
      data-confirmation-step=""
      className="my-4 rounded-xl border border-amber-300 bg-amber-50 p-5 text-amber-950 shadow-sm dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="mt-2 whitespace-pre-line text-sm">{message}</p>
      <Form method="post" action={action} className="mt-4 flex flex-wrap items-center gap-2">
        <HiddenFields fields={{ ...fields, confirmed: "1" }} />
        <button type="submit" className={buttonClass("danger")} autoFocus>
          {confirmLabel}
        </button>
        <Link to={back} className={buttonClass("secondary")}>
          Abbrechen
        </Link>
      </Form>
    </section>
  );
}
