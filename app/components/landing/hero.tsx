import { buttonClass } from "~/components/ui/button";

export function Hero({
  affiliate,
  title,
  subtitle,
}: {
  affiliate: { code: string; discountValue: number } | null;
  /** The agency's headline and its lead (ADR 268). */
  title: string;
  subtitle: string;
}) {
  return (
    <section className="bg-gradient-to-b from-indigo-50 to-white px-4 pt-14 pb-16 sm:px-6 sm:pt-20 dark:from-slate-900 dark:to-slate-950">
      <div className="mx-auto max-w-4xl text-center">
        {affiliate ? (
          <p
            className="mb-6 inline-flex flex-wrap items-center justify-center gap-2 rounded-full bg-green-100 px-4 py-1.5 text-sm font-semibold text-green-900 dark:bg-green-900/50 dark:text-green-100"
            data-testid="affiliate-badge"
          >
            <span>Code {affiliate.code}</span>
            <span aria-hidden="true">·</span>
            <span>{`${affiliate.discountValue}% Rabatt aktiv`}</span>
          </p>
        ) : null}
        <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-5xl dark:text-white">
          {title}
        </h1>
        <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-700 dark:text-slate-300">
          {subtitle}
        </p>
        <div className="mt-8 flex flex-wrap justify-center gap-3">
          <a href="#contact" className={buttonClass("primary")}>
            Jetzt Idee einreichen
          </a>
          <a href="#faq" className={buttonClass("secondary")}>
            Häufige Fragen
          </a>
        </div>
        {affiliate ? (
          <p className="mt-4 text-sm text-slate-600 dark:text-slate-400">
            Der Rabatt wird bei Vertragsabschluss verrechnet.
          </p>
        ) : null}
      </div>
    </section>
  );
}
