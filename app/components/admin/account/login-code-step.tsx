import { AccountFooterLink, AccountForm, AccountSubmit } from "~/components/admin/account-fields";
import { Field, useConformForm } from "~/components/ui/form";
import { LoginCodeSchema } from "~/lib/two-factor";

/**
 * The second step of the login for an admin with 2FA (ADR 256): the challenge from the password
 * step rides along as a hidden field; one field takes the app's six-digit code or a recovery code.
 * Works without JavaScript (a plain form post).
 */
export function LoginCodeStep({
  challenge,
  result,
  at,
  submitting,
  checking,
}: {
  challenge: string;
  result: Parameters<typeof useConformForm>[1];
  at: number;
  submitting: boolean;
  checking: boolean;
}) {
  const [form, fields] = useConformForm(LoginCodeSchema, result, { id: "login-code" });
  return (
    <>
      <AccountForm form={form} hidden={{ intent: "code", challenge }}>
        <Field
          key={`code-${at}`}
          meta={fields.code}
          label="Bestätigungscode"
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          // The step replaced the password form: its one field takes the focus.
          autoFocus
          required
          hint="Den sechsstelligen Code zeigt Ihre Authenticator-App. Ohne Ihr Telefon geben Sie einen Ihrer Wiederherstellungscodes ein."
        />
        <AccountSubmit submitting={submitting} pending="Code wird geprüft..." checking={checking}>
          Bestätigen
        </AccountSubmit>
      </AccountForm>
      <AccountFooterLink to="/admin/login">Abbrechen und neu anmelden</AccountFooterLink>
    </>
  );
}
