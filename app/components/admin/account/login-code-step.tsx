import { AccountFooterLink, AccountForm, AccountSubmit } from "~/components/admin/account-fields";
import { Alert } from "~/components/ui/field";
import { Field, useConformForm } from "~/components/ui/form";
import { useHydrated } from "~/components/ui/use-hydrated";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { LoginCodeSchema } from "~/lib/two-factor";
import { PasskeyLoginButton } from "./passkey-login-button";

/**
 * The second step of the login for an admin with 2FA (ADR 256): the challenge from the password
 * step rides along as a hidden field; one field takes the app's six-digit code or a recovery code.
 * Works without JavaScript (a plain form post). With a passkey (ADR 280), "Mit Passkey bestätigen"
 * appears once the page runs JavaScript; an admin with a passkey only and no JavaScript is told
 * that it needs it.
 */
export function LoginCodeStep({
  challenge,
  methods,
  result,
  at,
  submitting,
  checking,
}: {
  challenge: string;
  methods: { code: boolean; passkey: boolean };
  result: Parameters<typeof useConformForm>[1];
  at: number;
  submitting: boolean;
  checking: boolean;
}) {
  const [form, fields] = useConformForm(LoginCodeSchema, result, { id: "login-code" });
  const hydrated = useHydrated();
  const formErrors = methods.code ? [] : (result?.error?.[""] ?? []);
  return (
    <>
      {methods.passkey ? (
        <PasskeyLoginButton label="Mit Passkey bestätigen" challenge={challenge} />
      ) : null}
      {formErrors.map((message) => (
        <Alert key={message}>{message}</Alert>
      ))}
      {methods.code ? (
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
      ) : hydrated ? null : (
        <Alert tone="info">{PASSKEY_MESSAGES.needsJavaScript}</Alert>
      )}
      <AccountFooterLink to="/admin/login">Abbrechen und neu anmelden</AccountFooterLink>
    </>
  );
}
