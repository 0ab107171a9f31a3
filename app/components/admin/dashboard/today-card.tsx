import { Link } from "react-router";
import { Card } from "~/components/ui/card";
import type { DigestJson } from "~/lib/digest";

/**
 * "Heute" (ADR 352): without SMTP the morning digest cannot be mailed, so the dashboard shows the
 * same list — promises, follow-ups, new leads assigned to the admin, requests held for checking.
 */
export function TodayCard({ digest }: { digest: DigestJson }) {
  return (
    <section aria-labelledby="today-heading" data-today-card="">
      <Card className="space-y-4 p-5">
        <div>
          <h2 id="today-heading" className="text-lg font-semibold">
            Heute
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Ihre Übersicht für heute (ohne E-Mail-Versand kommt sie nicht per Mail).
          </p>
        </div>
        {digest.sections.length ? (
          digest.sections.map((section) => (
            <div key={section.key} data-digest-section={section.key}>
              <h3 className="text-sm font-semibold">{section.title}</h3>
              {section.summary ? <p className="text-sm">{section.summary}</p> : null}
              {section.items.length ? (
                <ul className="mt-1 space-y-1 text-sm">
                  {section.items.map((item) => (
                    <li key={`${section.key}-${item.requestId}`}>
                      <Link
                        to={item.href}
                        className="font-medium text-indigo-700 hover:underline dark:text-indigo-300"
                      >
                        {item.label}
                      </Link>{" "}
                      <span className="text-slate-600 dark:text-slate-300">– {item.detail}</span>
                      {item.badge ? (
                        <span className="ml-2 rounded-full bg-green-100 px-2 py-0.5 text-xs text-green-900 dark:bg-green-950 dark:text-green-200">
                          {item.badge}
                        </span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              ) : null}
              {section.items.length && section.more > 0 ? (
                <p className="text-sm text-slate-600 dark:text-slate-400">
                  … und {section.more} weitere
                </p>
              ) : null}
              {section.link ? (
                <Link to={section.link.href} className="text-sm underline">
                  {section.link.label}
                </Link>
              ) : null}
            </div>
          ))
        ) : (
          <p className="text-sm text-slate-600 dark:text-slate-400">Heute ist nichts fällig.</p>
        )}
      </Card>
    </section>
  );
}
