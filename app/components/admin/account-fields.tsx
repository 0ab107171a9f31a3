import type { ComponentProps, ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { ConformForm, Field } from "~/components/ui/form";
import { Honeypot } from "~/components/ui/honeypot";
import { HiddenFields } from "~/components/ui/post-button";

type FieldProps = ComponentProps<typeof Field>;

/** The username input of the login and registration forms. */
export function UsernameField({ meta }: { meta: FieldProps["meta"] }) {
  return (
    <Field
      meta={meta}
      label="Benutzername"
      autoComplete="username"
      autoCapitalize="none"
      required
    />
  );
}

/** The e-mail address input of the account forms ("Passwort vergessen", the profile). */
export function EmailField(
  props: Omit<FieldProps, "type" | "label" | "autoComplete" | "required">,
) {
  return <Field label="E-Mail-Adresse" type="email" autoComplete="email" required {...props} />;
}

/** A required password input of the account forms. */
export function PasswordField(props: Omit<FieldProps, "type" | "required">) {
  return <Field type="password" required {...props} />;
}

/**
 * The full-width submit button of an account form: its label, or the pending label while posting;
 * with `checking`, "Überprüfe Authentifizierung..." is announced below it.
 */
export function AccountSubmit({
  submitting,
  pending,
  disabled = submitting,
  checking = false,
  children,
}: {
  submitting: boolean;
  pending: string;
  disabled?: boolean;
  checking?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <Button type="submit" className="w-full" disabled={disabled}>
        {submitting ? pending : children}
      </Button>
      {checking ? (
        <p role="status" className="text-center text-sm text-slate-500 dark:text-slate-400">
          Überprüfe Authentifizierung...
        </p>
      ) : null}
    </>
  );
}

/** The link below an account form ("Passwort vergessen?", "Abbrechen und neu anmelden"). */
export function AccountFooterLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="text-center text-sm">
      <Link
        to={to}
        className="font-medium text-indigo-600 hover:underline focus-visible:outline-2 dark:text-indigo-400"
      >
        {children}
      </Link>
    </p>
  );
}

/** An account page's form: Conform's form with the honeypot and the hidden values it posts back. */
export function AccountForm({
  form,
  hidden = {},
  children,
}: {
  form: ComponentProps<typeof ConformForm>["form"];
  hidden?: Record<string, string>;
  children: ReactNode;
}) {
  return (
    <ConformForm form={form}>
      <Honeypot />
      <HiddenFields fields={hidden} />
      {children}
    </ConformForm>
  );
}
