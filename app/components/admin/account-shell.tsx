import type { ReactNode } from "react";
import { Link } from "react-router";
import type { Hydration } from "~/components/app-scripts";
import { Card } from "~/components/ui/card";
import { LogoMark } from "~/components/ui/logo";
import { useBrand } from "~/components/ui/use-brand";

/** The account pages' route `handle`: they paint before their JavaScript loads (ADR 171); their forms work without it. */
export const accountPageHandle = { hydration: "after-paint" } satisfies { hydration: Hydration };

/** Centered card for the public account pages (login, registration, forgot/reset password). */
export function AccountShell({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
}) {
  const brand = useBrand();
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4 py-12 dark:bg-slate-950">
      <div className="w-full max-w-md">
        <p className="mb-6 text-center">
          <Link
            to="/"
            className="inline-flex items-center gap-2 text-sm font-semibold text-indigo-600 hover:underline dark:text-indigo-400"
          >
            <LogoMark size={6} />
            {brand.name}
          </Link>
        </p>
        <Card className="space-y-5 p-6 sm:p-8">
          <div>
            <h1 className="text-2xl font-bold text-slate-900 dark:text-slate-50">{title}</h1>
            {subtitle ? (
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">{subtitle}</p>
            ) : null}
          </div>
          {children}
        </Card>
      </div>
    </main>
  );
}

/** The centred link under an account page's form ("Zurück zum Login", "Neuen Reset-Link anfordern"). */
export function AccountLink({
  to,
  reloadDocument,
  children,
}: {
  to: string;
  reloadDocument?: boolean;
  children: ReactNode;
}) {
  return (
    <p className="text-center text-sm">
      <Link
        to={to}
        reloadDocument={reloadDocument}
        className="font-medium text-indigo-600 hover:underline dark:text-indigo-400"
      >
        {children}
      </Link>
    </p>
  );
}
