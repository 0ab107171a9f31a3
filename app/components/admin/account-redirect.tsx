import { useEffect } from "react";
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

/** An account flow's success page: the server's message, then the way back to the login. */
export function AccountSuccess({
  title,
  message,
  to,
}: {
  title: string;
  message: string;
  to: string;
}) {
  return (
    <AccountShell title={title}>
      <Alert tone="success">{message}</Alert>
      <RedirectToLogin to={to} />
    </AccountShell>
  );
}
