import { isRouteErrorResponse, useLocation } from "react-router";
import { AccountLink } from "~/components/admin/account-shell";
import { Alert } from "~/components/ui/field";

/** The spec's German text for an error that reached an account page's boundary (§8). */
export function accountErrorMessage(
  error: unknown,
  fallback: string,
  networkMessage = "Netzwerk-Fehler: Server nicht erreichbar oder Timeout",
) {
  if (isRouteErrorResponse(error)) {
    const data = error.data as { error?: unknown } | string | undefined;
    if (typeof data === "object" && typeof data?.error === "string") return data.error;
    if (typeof data === "string" && data) return data;
    return `Server-Fehler: ${error.status}`;
  }
  if (error instanceof TypeError && /fetch|network/i.test(error.message)) {
    return networkMessage;
  }
  return fallback;
}

const WAYS_BACK = {
  login: { to: "/admin/login", label: "Zum Login" },
  dashboard: { to: "/admin/dashboard", label: "Zum Dashboard" },
  reload: { to: null, label: "Erneut laden" },
} as const;

/** Error view shared by the account pages' ErrorBoundary exports. */
export function AccountError({
  error,
  fallback,
  back = "login",
  networkMessage,
}: {
  error: unknown;
  fallback: string;
  networkMessage?: string;
  /** The link under the message: to the login, to the dashboard, or this page again (a full load). */
  back?: keyof typeof WAYS_BACK;
}) {
  const { pathname } = useLocation();
  const way = WAYS_BACK[back];
  return (
    <main className="mx-auto max-w-md space-y-4 px-4 py-16">
      <Alert>{accountErrorMessage(error, fallback, networkMessage)}</Alert>
      <AccountLink to={way.to ?? pathname} reloadDocument>
        {way.label}
      </AccountLink>
    </main>
  );
}

const RETRY_LATER = "Netzwerkfehler. Bitte versuchen Sie es später erneut.";

/** Boundary of the password-reset pages: one retry-later text for network and unknown errors. */
export function AccountRetryError({ error }: { error: unknown }) {
  return <AccountError error={error} fallback={RETRY_LATER} networkMessage={RETRY_LATER} />;
}
