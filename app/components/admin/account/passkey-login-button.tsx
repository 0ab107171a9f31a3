import { browserSupportsWebAuthn, startAuthentication } from "@simplewebauthn/browser";
import { useState } from "react";
import { useSubmit } from "react-router";
import { Button } from "~/components/ui/button";
import { Alert } from "~/components/ui/field";
import { useHydrated } from "~/components/ui/use-hydrated";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";

/** POSTs JSON to an /api call of this site; its JSON answer (or {} when unreadable). */
export async function postJson(url: string, body: unknown, method = "POST") {
  const res = await fetch(url, {
    method,
    headers: { "content-type": "application/json", accept: "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { ok: res.ok, json };
}

export const errorOf = (json: Record<string, unknown>, fallback: string) =>
  typeof json.error === "string" ? json.error : fallback;

/**
 * "Mit Passkey anmelden" (login page, no name needed) or "Mit Passkey bestätigen" (the code step,
 * with the password step's `challenge`), ADR 280. Passkeys need the browser's WebAuthn API, so the
 * button exists only once the page runs JavaScript in a browser that has it (progressive
 * enhancement; password and code stay the way in without). The options come from
 * `/api/admin/auth/passkey/options`; the browser's answer is posted to the login page's action,
 * which sets the session cookie like the code step.
 */
export function PasskeyLoginButton({
  label,
  challenge,
  redirectTo,
}: {
  label: string;
  challenge?: string;
  redirectTo?: string;
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Until the page runs its script, the button's place is kept where scripts run (CSS `scripting`),
  // so its arrival moves nothing: the login card is centred, and a button appearing below it would
  // lift "Anmelden" by half its height under a press already on its way. Without JavaScript
  // nothing is kept (the password and the code stay the way in).
  // 2.625rem: the secondary button's 2.5rem and its border.
  if (!hydrated) return <div aria-hidden="true" className="h-[2.625rem] noscript:hidden" />;
  if (!browserSupportsWebAuthn()) return null;

  async function run() {
    setBusy(true);
    setError(null);
    try {
      const options = await postJson(
        "/api/admin/auth/passkey/options",
        challenge ? { challenge } : {},
      );
      if (!options.ok) {
        setError(errorOf(options.json, PASSKEY_MESSAGES.loginFailed));
        return;
      }
      const response = await startAuthentication({
        optionsJSON: options.json.options as Parameters<
          typeof startAuthentication
        >[0]["optionsJSON"],
      });
      const form = new FormData();
      form.set("intent", challenge ? "passkey-second" : "passkey");
      if (challenge) form.set("challenge", challenge);
      if (redirectTo) form.set("redirectTo", redirectTo);
      form.set("response", JSON.stringify(response));
      await submit(form, { method: "post", action: "/admin/login" });
    } catch {
      setError(PASSKEY_MESSAGES.cancelled);
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="space-y-3">
      <Button type="button" variant="secondary" className="w-full" disabled={busy} onClick={run}>
        {busy ? "Warte auf Passkey..." : label}
      </Button>
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
