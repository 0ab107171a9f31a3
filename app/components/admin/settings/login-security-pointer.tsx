import { Link } from "react-router";
import { Card } from "~/components/ui/card";

/** Where the 2FA rule is switched: its block in the "Sicherheit" section of the account page. */
export const TWO_FACTOR_RULE_HREF = "/admin/account#zwei-faktor-regel";

/**
 * "Anmelde-Sicherheit" on /admin/settings (ADR 256): the rule
 * "Zwei-Faktor-Anmeldung für alle Admins verlangen" is switched in one place only, the account
 * page; here a pointer with its current state, so whoever looks among the settings finds it.
 */
export function LoginSecurityPointer({ requireTwoFactor }: { requireTwoFactor: boolean }) {
  return (
    <Card className="space-y-1 p-5" role="region" aria-labelledby="login-security-heading">
      <h2 id="login-security-heading" className="text-lg font-semibold">
        Anmelde-Sicherheit
      </h2>
      <p className="text-sm" data-two-factor-rule={requireTwoFactor ? "on" : "off"}>
        Zwei-Faktor-Anmeldung für alle Admins:{" "}
        <strong>{requireTwoFactor ? "verlangt" : "nicht verlangt"}</strong>.{" "}
        <Link
          to={TWO_FACTOR_RULE_HREF}
          className="font-medium text-indigo-700 underline hover:no-underline dark:text-indigo-300"
        >
          In Ihrem Konto unter „Sicherheit“ ändern
        </Link>
      </p>
    </Card>
  );
}
