import { useRouteLoaderData } from "react-router";
import { buttonClass } from "~/components/ui/button";

/**
 * How to reach the agency from a dead end (an invalid or expired link, a booking that is not
 * possible): the contact form on the landing page and the contact details of the imprint
 * (`IMPRINT_URL`, from the root loader).
 */
export function AgencyContact() {
  const root = useRouteLoaderData("root") as { imprintUrl?: string } | undefined;
  return (
    <section
      aria-labelledby="agency-contact-title"
      className="mt-8 rounded-xl border border-slate-200 bg-slate-50 p-5 text-left dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 id="agency-contact-title" className="font-semibold">
        So erreichst du uns
      </h2>
      <p className="mt-1 text-sm text-slate-700 dark:text-slate-300">
        Schreib uns über das Kontaktformular – am besten mit der Nummer deiner Anfrage aus unserer
        E-Mail. Unsere E-Mail-Adresse und Telefonnummer findest du im Impressum.
      </p>
      <div className="mt-3 flex flex-wrap gap-3">
        <a href="/#contact" className={buttonClass("secondary", "sm")}>
          Zum Kontaktformular
        </a>
        {root?.imprintUrl ? (
          <a href={root.imprintUrl} rel="noopener" className={buttonClass("secondary", "sm")}>
            Kontakt im Impressum
          </a>
        ) : null}
      </div>
    </section>
  );
}
