import { type ReactNode, useEffect } from "react";
import { Link, useNavigate } from "react-router";
import { AccountShell } from "~/components/admin/account-shell";
import { Alert } from "~/components/ui/field";

/**
 * Success notice that leads to the login page after 3 seconds: with JS by navigation, without JS
 * by a meta refresh (hoisted into <head> by React).
 */
export function RedirectToLogin({ to, seconds = 3 }: { to: string; seconds?: number }) {
  const navigate = useNavigate();
  useEffect(() => {
    const timer = setTimeout(() => navigate(to), seconds * 1000);
    return () => clearTimeout(timer);
  }, [navigate, to, seconds]);
  return (
    <>
      <meta httpEquiv="refresh" content={`${seconds};url=${to}`} />
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Sie werden in {seconds} Sekunden zum Login weitergeleitet.{" "}
        <Link to={to} className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
          Jetzt zum Login
        </Link>
      </p>
    </>
  );
}

/**
 * What a token page (registration, password reset) shows instead of its form: the success page
 * after a good submit, or the invalid-link page with its help; `null` while the form applies.
 */
export function accountOutcome({
  success,
  invalid,
}: {
  success: { message: string | null | undefined; title: string; to: string };
  invalid: { message: string | null; title: string; help: ReactNode };
}) {
  if (success.message) {
    return (
      <AccountShell title={success.title}>
        <Alert tone="success">{success.message}</Alert>
        <RedirectToLogin to={success.to} />
      </AccountShell>
    );
  }
  if (invalid.message) {
    return (
      <AccountShell title={invalid.title}>
        <Alert>{invalid.message}</Alert>
        {invalid.help}
      </AccountShell>
    );
  }
  return null;
}
