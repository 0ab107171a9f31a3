import type { FaqEntry } from "~/lib/branding";
import { LandingSection } from "./landing-section";

/**
 * The agency's questions (ADR 268; by default today's ten); native <details name> keeps one open
 * at a time, also without JavaScript. No questions: no section.
 */
export function Faq({ entries }: { entries: FaqEntry[] }) {
  if (entries.length === 0) return null;
  return (
    <LandingSection id="faq" title="Häufige Fragen" width="max-w-3xl">
      <div className="mt-6 divide-y divide-slate-200 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {entries.map(({ question: q, answer: a }, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a static list; two questions may be equal
          <details key={index} name="faq" className="group px-4 py-3">
            <summary className="cursor-pointer list-none rounded-md font-semibold text-slate-900 marker:hidden dark:text-white">
              <span className="flex items-center justify-between gap-4">
                {q}
                <span aria-hidden="true" className="transition-transform group-open:rotate-45">
                  +
                </span>
              </span>
            </summary>
            <p className="mt-2 text-slate-700 dark:text-slate-300">{a}</p>
          </details>
        ))}
      </div>
    </LandingSection>
  );
}
