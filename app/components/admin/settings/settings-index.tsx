import { createContext, type ReactNode, useContext, useState } from "react";

/**
 * The settings page's index (ADR 344): every card that renders a `<Section>` — or registers with
 * `useSettingsIndexEntry`, the cards beside the settings form — is listed by its anchor and title
 * in the order the page renders them. A new card joins by itself; nothing here names one.
 *
 * The cards register while they render and the index renders after them (the end of the page,
 * placed beside the cards from 1024 px by the grid): on the server and in the browser alike, so
 * the list is in the HTML without JavaScript and hydration finds the same.
 */
const SettingsIndexContext = createContext<Map<string, string> | null>(null);

export const SETTINGS_INDEX_ID = "einstellungen-inhalt";

/** Provides the index's registry to the cards below (the settings page; not /admin/legacy). */
export function SettingsIndexProvider({ children }: { children: ReactNode }) {
  const [entries] = useState(() => new Map<string, string>());
  return <SettingsIndexContext.Provider value={entries}>{children}</SettingsIndexContext.Provider>;
}

/** Lists a card (its element's id and its heading) in the page's index, if the page has one. */
export function useSettingsIndexEntry(id: string, title: string) {
  const entries = useContext(SettingsIndexContext);
  // Rendering order is the page's order; a card rendered again keeps its place.
  entries?.set(id, title);
}

/** Whether this page has an index (the save bar links to it then). */
export function useHasSettingsIndex() {
  return useContext(SettingsIndexContext) !== null;
}

const link =
  "block rounded px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white";

/** The index: a list of in-page links, rendered after every card it lists. */
export function SettingsIndex({ className = "" }: { className?: string }) {
  const entries = useContext(SettingsIndexContext);
  if (!entries || entries.size === 0) return null;
  return (
    <nav
      id={SETTINGS_INDEX_ID}
      aria-labelledby={`${SETTINGS_INDEX_ID}-titel`}
      className={`scroll-mt-4 rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900 ${className}`}
    >
      <h2 id={`${SETTINGS_INDEX_ID}-titel`} className="px-2 pb-1 text-sm font-semibold">
        Abschnitte
      </h2>
      <ul>
        {[...entries].map(([id, title]) => (
          <li key={id}>
            <a href={`#${id}`} className={link}>
              {title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
