import { browserSupportsWebAuthn, startRegistration } from "@simplewebauthn/browser";
import { type FormEvent, useState } from "react";
import { Form, useNavigation, useRevalidator } from "react-router";
import { Button } from "~/components/ui/button";
import { useHydrated } from "~/components/ui/use-hydrated";
import { formatDateTime } from "~/lib/format";
import { PASSKEY_MESSAGES, PASSKEY_NAME_MAX } from "~/lib/passkeys";
import { errorOf, postJson } from "./passkey-login-button";
import { ReplyAlerts } from "./reply-alerts";

export type PasskeyItem = {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
};

const BACK = "/admin/account";
const inputClass =
  "block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900";

/**
 * Passkeys in "Sicherheit" (ADR 280): the list (name, added, last used) with "Entfernen"
 * (password or a current code; a plain form post), the switch "Passkey statt Passwort erlauben",
 * and — with JavaScript only, as WebAuthn needs it — "Passkey hinzufügen".
 */
export function PasskeysSection({
  passkeys,
  loginAllowed,
  hasTotp,
  reply,
}: {
  passkeys: PasskeyItem[];
  loginAllowed: boolean;
  hasTotp: boolean;
  reply?: { message?: string; error?: string };
}) {
  const busy = useNavigation().state === "submitting";
  return (
    <div className="space-y-3 border-t border-slate-200 pt-4 dark:border-slate-700">
      <h3 id="passkeys" className="scroll-mt-24 font-semibold">
        Passkeys
      </h3>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Ein Passkey (Fingerabdruck, Gesichtserkennung, Geräte-PIN oder Sicherheitsschlüssel)
        bestätigt die Anmeldung anstelle des Codes – und ersetzt auf Wunsch auch das Passwort.
      </p>
      <ReplyAlerts reply={reply} />
      {passkeys.length ? (
        <ul aria-labelledby="passkeys" className="space-y-2">
          {passkeys.map((p) => (
            <li
              key={p.id}
              data-testid="passkey"
              className="space-y-2 rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-700"
            >
              <p className="font-medium break-words">{p.name}</p>
              <p className="text-slate-600 dark:text-slate-300">
                Hinzugefügt {formatDateTime(p.createdAt)} · Zuletzt verwendet{" "}
                {p.lastUsedAt ? formatDateTime(p.lastUsedAt) : "noch nie"}
              </p>
              <RemoveForm passkey={p} hasTotp={hasTotp} busy={busy} />
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm">Noch kein Passkey eingerichtet.</p>
      )}
      <AddPasskey hasTotp={hasTotp} />
      {passkeys.length ? (
        <Form method="post" action={BACK} className="space-y-2">
          <input type="hidden" name="intent" value="passkey-login" />
          <label className="flex items-start gap-2 text-sm">
            <input
              type="checkbox"
              name="passkeyLogin"
              defaultChecked={loginAllowed}
              key={String(loginAllowed)}
              className="mt-0.5 size-4"
            />
            <span>
              Passkey statt Passwort erlauben
              <span className="block text-xs text-slate-500 dark:text-slate-400">
                Mit Häkchen genügt der Passkey allein. Ohne Häkchen verlangt die Anmeldung immer
                zuerst das Passwort, und der Passkey bestätigt sie danach.
              </span>
            </span>
          </label>
          <Button type="submit" variant="secondary" size="sm" disabled={busy}>
            Passkey-Einstellung speichern
          </Button>
        </Form>
      ) : null}
    </div>
  );
}

function RemoveForm({
  passkey,
  hasTotp,
  busy,
}: {
  passkey: PasskeyItem;
  hasTotp: boolean;
  busy: boolean;
}) {
  const id = `passkey-${passkey.id}`;
  return (
    <details>
      <summary className="cursor-pointer font-medium">
        Entfernen<span className="sr-only"> ({passkey.name})</span>
      </summary>
      <Form method="post" action={BACK} className="mt-3 space-y-3">
        <input type="hidden" name="intent" value="passkey-remove" />
        <input type="hidden" name="id" value={passkey.id} />
        <ProofFields id={id} hasTotp={hasTotp} />
        <Button type="submit" variant="danger" size="sm" disabled={busy}>
          Passkey entfernen<span className="sr-only"> ({passkey.name})</span>
        </Button>
      </Form>
    </details>
  );
}

/** The step-up of adding or removing: the password, or a current code from the app. */
function ProofFields({ id, hasTotp }: { id: string; hasTotp: boolean }) {
  return (
    <>
      <div className="space-y-1">
        <label htmlFor={`${id}-password`} className="block text-sm font-medium">
          Aktuelles Passwort
        </label>
        <input
          id={`${id}-password`}
          name="password"
          type="password"
          autoComplete="current-password"
          className={inputClass}
        />
      </div>
      {hasTotp ? (
        <div className="space-y-1">
          <label htmlFor={`${id}-code`} className="block text-sm font-medium">
            Oder: Code aus der App
          </label>
          <input
            id={`${id}-code`}
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            className={inputClass}
          />
        </div>
      ) : null}
    </>
  );
}

/**
 * "Passkey hinzufügen": name and proof → `/api/admin/account/passkeys/options` → the browser
 * creates the passkey → `…/verify` saves it; the page's data is then reloaded.
 */
function AddPasskey({ hasTotp }: { hasTotp: boolean }) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [state, setState] = useState<{ busy: boolean; message?: string; error?: string }>({
    busy: false,
  });
  // The form exists while the fold is open (its "Aktuelles Passwort" is not a second one of the
  // section's until then).
  const [open, setOpen] = useState(false);
  if (!hydrated) {
    return <p className="text-sm">Zum Hinzufügen eines Passkeys braucht der Browser JavaScript.</p>;
  }
  if (!browserSupportsWebAuthn()) return <p className="text-sm">{PASSKEY_MESSAGES.unsupported}</p>;

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    setState({ busy: true });
    try {
      const options = await postJson("/api/admin/account/passkeys/options", {
        name: String(form.get("name") ?? ""),
        password: String(form.get("password") ?? "") || undefined,
        code: String(form.get("code") ?? "") || undefined,
      });
      if (!options.ok) {
        setState({
          busy: false,
          error: errorOf(options.json, PASSKEY_MESSAGES.registrationFailed),
        });
        return;
      }
      const response = await startRegistration({
        optionsJSON: options.json.options as Parameters<typeof startRegistration>[0]["optionsJSON"],
      });
      const saved = await postJson("/api/admin/account/passkeys/verify", { response });
      if (!saved.ok) {
        setState({ busy: false, error: errorOf(saved.json, PASSKEY_MESSAGES.registrationFailed) });
        return;
      }
      formElement.reset();
      setState({ busy: false, message: String(saved.json.message ?? "") });
      await revalidator.revalidate();
    } catch {
      setState({ busy: false, error: PASSKEY_MESSAGES.cancelled });
    }
  }

  return (
    <details
      className="text-sm"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
    >
      <summary className="cursor-pointer font-medium">Passkey hinzufügen</summary>
      {open ? (
        <form onSubmit={add} className="mt-3 space-y-3">
          <div className="space-y-1">
            <label htmlFor="passkey-name" className="block text-sm font-medium">
              Name des Passkeys
            </label>
            <input
              id="passkey-name"
              name="name"
              required
              maxLength={PASSKEY_NAME_MAX}
              placeholder="z. B. Laptop oder Telefon"
              className={inputClass}
            />
          </div>
          <ProofFields id="passkey-add" hasTotp={hasTotp} />
          <Button type="submit" size="sm" disabled={state.busy}>
            {state.busy ? "Warte auf Passkey..." : "Passkey speichern"}
          </Button>
        </form>
      ) : null}
      <ReplyAlerts reply={state} className="mt-3" />
    </details>
  );
}
