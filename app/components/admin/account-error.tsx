import { isRouteErrorResponse, Link } from "react-router";
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

/** Error view shared by the account pages' ErrorBoundary exports. */
export function AccountError({
  error,
  fallback,
  back = { to: "/admin/login", label: "Zum Login" },
  networkMessage,
}: {
  error: unknown;
  fallback: string;
  networkMessage?: string;
  back?: { to: string; label: string };
}) {
  return (
    <main className="mx-auto max-w-md space-y-4 px-4 py-16">
      <Alert>{accountErrorMessage(error, fallback, networkMessage)}</Alert>
      <p className="text-center text-sm">
        <Link
          to={back.to}
          reloadDocument
          className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
        >
          {back.label}
        </Link>
      </p>
    </main>
  );
}
