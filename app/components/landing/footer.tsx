/** `year`: from the loader (Berlin time on the server), never the browser's clock. */
export function Footer({
  privacyUrl,
  imprintUrl,
  line,
}: {
  privacyUrl: string;
  imprintUrl: string;
  /** The company line (ADR 268), its `{jahr}` and `{name}` filled in by the loader. */
  line: string;
}) {
  return (
    <footer className="border-t border-slate-200 px-4 py-8 pb-40 text-sm text-slate-600 sm:px-6 dark:border-slate-800 dark:text-slate-400">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4">
        <p>{line}</p>
        <nav aria-label="Rechtliches" className="flex flex-wrap gap-4">
          <a className="underline-offset-2 hover:underline" href={privacyUrl} rel="noopener">
            Datenschutz
          </a>
          <a className="underline-offset-2 hover:underline" href={imprintUrl} rel="noopener">
            Impressum
          </a>
          <a className="underline-offset-2 hover:underline" href="/?cookies=1#cookie-consent">
            Cookie-Einstellungen
          </a>
        </nav>
      </div>
    </footer>
  );
}
