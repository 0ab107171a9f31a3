import { Form, Outlet, redirect, useNavigation, useRouteLoaderData } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import { TabBar } from "~/components/admin/tab-bar";
import { Button, buttonClass } from "~/components/ui/button";
import { iconProps } from "~/components/ui/icons";
import { LogoMark } from "~/components/ui/logo";
import { ThemeToggle } from "~/components/ui/theme-toggle";
import { useBrand } from "~/components/ui/use-brand";
import type { ThemeChoice } from "~/lib/brand";
import { countAwaitingActivation } from "~/server/accounts/activation.server";
import {
  documentPath,
  ENROLMENT_PATH,
  FIRST_LOGIN_PATH,
  requireAdmin,
} from "~/server/accounts/auth.server";
import { countQuarantined } from "~/server/requests/quarantine.server";
import type { Route } from "./+types/layout";

/** Server-side session check before anything protected renders (no flash of protected content). */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, { allowPendingPasswordChange: true });
  const pathname = documentPath(request).split("?")[0];
  // Until the first password is changed, every protected page leads to the change-password page.
  if (!admin.password_changed && pathname !== "/admin/change-password") {
    throw redirect(FIRST_LOGIN_PATH);
  }
  // Then, while the 2FA rule asks for an enrolment, every page but the account page leads there.
  if (
    admin.mfaEnrollmentRequired &&
    admin.password_changed &&
    pathname !== "/admin/account" &&
    pathname !== "/admin/change-password"
  ) {
    throw redirect(ENROLMENT_PATH);
  }
  const { tokenHash: _hidden, ...visible } = admin;
  return {
    admin: visible,
    awaitingActivation: countAwaitingActivation(),
    // Held requests badge the "Anfragen" tab (ADR 327).
    held: countQuarantined(),
  };
}

export function headers() {
  return { "Cache-Control": "private, no-store" };
}

export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const brand = useBrand();
  const root = useRouteLoaderData("root") as { theme?: ThemeChoice } | undefined;
  const checking =
    navigation.state === "loading" && navigation.location.pathname.startsWith("/admin");
  const pendingPasswordChange = !loaderData.admin.password_changed;
  const pendingEnrollment = loaderData.admin.mfaEnrollmentRequired;
  return (
    <div data-admin-layout="" className="min-h-screen bg-slate-50 dark:bg-slate-950">
      <header className="relative bg-white shadow-sm dark:bg-slate-900">
        {/* Phones: logo, "Admin-Bereich" and the buttons in one row, the welcome on its own full-width
            line below (at 390 px it never shrinks to "Willkom…"); from 640 px the welcome sits under
            the brand line beside the logo. */}
        <div
          className={`${FRAME} grid grid-cols-[auto_minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 py-3`}
        >
          <LogoMark size="admin" className="sm:row-span-2" />
          <p className="truncate text-xs font-semibold text-indigo-600 sm:self-end sm:uppercase sm:tracking-wide dark:text-indigo-400">
            <span className="hidden sm:inline">{brand.name} · </span>Admin-Bereich
          </p>
          <div className="col-start-3 row-start-1 flex shrink-0 items-center gap-1 sm:row-span-2 sm:gap-2">
            <a
              href="/"
              className={`${buttonClass("ghost", "sm")} whitespace-nowrap`}
              title="Zur öffentlichen Seite"
            >
              <ExternalIcon />
              <span className="sr-only sm:not-sr-only">Zur Website</span>
            </a>
            <ThemeToggle theme={root?.theme ?? "system"} />
            <Form method="post" action="/admin/logout">
              <Button type="submit" variant="secondary" size="sm">
                Abmelden
              </Button>
            </Form>
          </div>
          <p
            className="col-span-3 truncate text-lg font-semibold text-slate-900 sm:col-span-1 sm:col-start-2 sm:self-start dark:text-slate-50"
            data-welcome=""
          >
            Willkommen, {loaderData.admin.username}
          </p>
        </div>
        <TabBar
          frame={FRAME}
          only={
            pendingPasswordChange
              ? ["/admin/change-password"]
              : pendingEnrollment
                ? ["/admin/account"]
                : undefined
          }
          awaitingActivation={loaderData.awaitingActivation}
          held={loaderData.held}
        />
        {checking ? (
          // Below the header, never over it, and only when the check takes more than a moment.
          <div className="pointer-events-none absolute inset-x-0 top-full z-40 flex justify-center pt-2">
            <p
              role="status"
              className="animate-appear-late rounded-full bg-indigo-600 px-4 py-1 text-sm font-medium text-white shadow"
            >
              Überprüfe Authentifizierung...
            </p>
          </div>
        ) : null}
      </header>
      <main className={`${FRAME} py-6`}>
        <Outlet />
      </main>
    </div>
  );
}

/** One column for header, tab bar and content, so their edges line up. */
const FRAME = "mx-auto w-full max-w-7xl px-4 sm:px-6";

function ExternalIcon() {
  return (
    <svg {...iconProps}>
      <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
    </svg>
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
