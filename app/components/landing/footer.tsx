import { ACCESSIBILITY_PATH } from "~/lib/accessibility";

const linkClass = "underline-offset-2 hover:underline";

/**
 * The footer of every visitor page (`visitorFooter()` on the server): the company line, the legal
 * links, "Barrierefreiheit" while the statement is published, "Cookie-Einstellungen" only where
 * analytics ask for consent. `year` is in `line`: from the loader, never the browser's clock.
 */
export function Footer({
  privacyUrl,
  imprintUrl,
  line,
  accessibility,
  cookieSettings,
  barBelow = false,
}: {
  privacyUrl: string;
  imprintUrl: string;
  /** The company line (ADR 268), its `{jahr}` and `{name}` filled in by the loader. */
  line: string;
  /** Link the accessibility statement (published). */
  accessibility: boolean;
  /** Link the consent settings (analytics configured). */
  cookieSettings: boolean;
  /** The cookie bar is shown over the page's bottom: room for it below the links. */
  barBelow?: boolean;
}) {
  return (
    <footer
      className={`border-t border-slate-200 px-4 py-8 text-sm text-slate-600 sm:px-6 dark:border-slate-800 dark:text-slate-400 ${barBelow ? "pb-40" : ""}`}
    >
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4">
        <p>{line}</p>
        <nav aria-label="Rechtliches" className="flex flex-wrap gap-x-4 gap-y-2">
          <a className={linkClass} href={privacyUrl} rel="noopener">
            Datenschutz
          </a>
          <a className={linkClass} href={imprintUrl} rel="noopener">
            Impressum
          </a>
          {accessibility ? (
            <a className={linkClass} href={ACCESSIBILITY_PATH}>
              Barrierefreiheit
            </a>
          ) : null}
          {cookieSettings ? (
            <a className={linkClass} href="/?cookies=1#cookie-consent">
              Cookie-Einstellungen
            </a>
          ) : null}
        </nav>
      </div>
    </footer>
  );
}
