import type { ComponentProps, ReactNode } from "react";
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

/** A required password input of the account forms. */
export function PasswordField(props: Omit<FieldProps, "type" | "required">) {
  return <Field type="password" required {...props} />;
}

/** The full-width submit button of an account form: its label, or the pending label while posting. */
export function AccountSubmit({
  submitting,
  pending,
  disabled = submitting,
  children,
}: {
  submitting: boolean;
  pending: string;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Button type="submit" className="w-full" disabled={disabled}>
      {submitting ? pending : children}
    </Button>
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
