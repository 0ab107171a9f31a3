import { Form, Outlet, redirect, useNavigation } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { TabBar } from "~/components/admin/tab-bar";
import { Button } from "~/components/ui/button";
import { documentPath, FIRST_LOGIN_PATH, requireAdmin } from "~/server/auth.server";
import type { Route } from "./+types/layout";

/** Server-side session check before anything protected renders (no flash of protected content). */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, { allowPendingPasswordChange: true });
  const pathname = documentPath(request).split("?")[0];
  // Until the first password is changed, every protected page leads to the change-password page.
  if (!admin.password_changed && pathname !== "/admin/change-password") {
    throw redirect(FIRST_LOGIN_PATH);
  }
  const { tokenHash: _hidden, ...visible } = admin;
  return { admin: visible };
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const checking =
    navigation.state === "loading" && navigation.location.pathname.startsWith("/admin");
  return (
    <div className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <header className="bg-white shadow-sm dark:bg-slate-900">
        <div className="flex items-center justify-between gap-3 px-4 py-3 sm:px-6">
          <div className="min-w-0">
            <p className="text-xs font-semibold uppercase tracking-wide text-indigo-600 dark:text-indigo-400">
              Admin-Bereich
            </p>
            <p className="truncate text-lg font-semibold text-slate-900 dark:text-slate-50">
              Willkommen, {loaderData.admin.username}
            </p>
          </div>
          <Form method="post" action="/admin/logout" className="shrink-0">
            <Button type="submit" variant="secondary" size="sm">
              Abmelden
            </Button>
          </Form>
        </div>
        <TabBar />
      </header>
      {checking ? (
        <div
          role="status"
          className="fixed inset-x-0 top-0 z-40 flex justify-center bg-indigo-600 px-4 py-1 text-sm font-medium text-white"
        >
          Überprüfe Authentifizierung...
        </div>
      ) : null}
      <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
        <Outlet />
      </main>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return (
    <AccountError
      error={error}
      fallback="Die Seite konnte nicht geladen werden. Bitte versuchen Sie es erneut."
    />
  );
}
