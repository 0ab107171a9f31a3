// The morning digest (ADR 352): what is due for one admin today, the same list in the 07:30
// mail and — without SMTP — in the dashboard's "Heute" card.

/** One line of a section: a request (or task) with a link into the back-office. */
export type DigestItem = {
  /** The request's id. */
  requestId: number;
  /** "#0042 Anna Müller". */
  label: string;
  /** "überfällig seit 02.12.2026 · Angebot nachfassen". */
  detail: string;
  /** A path below the app, e.g. "/admin/requests?requestId=42". */
  href: string;
  /** "Antwort erhalten" / "Termin gebucht": nobody needs to chase. */
  badge?: string;
};

export type DigestSection = {
  /** Stable key (`promises`, `followUps`, `newLeads`, `held`). */
  key: string;
  title: string;
  items: DigestItem[];
  /** Items beyond those listed. */
  more: number;
  /** A sentence instead of (or above) items, e.g. "3 Anfragen warten auf Prüfung". */
  summary?: string;
  /** Where the whole list lives. */
  link?: { label: string; href: string };
};

export type DigestJson = {
  /** The Berlin day it is for. */
  day: string;
  /** Only the sections with something in them, in a fixed order. */
  sections: DigestSection[];
};

/** At most this many lines per section (the rest is a count and the section's link). */
export const DIGEST_SECTION_ITEMS = 15;

/** "Ihre Übersicht für heute: 3 Wiedervorlagen, 2 neue Anfragen" (the mail's subject). */
export function digestSubject(digest: DigestJson): string {
  const count = (key: string) => {
    const s = digest.sections.find((x) => x.key === key);
    return s ? s.items.length + s.more : 0;
  };
  const parts = [
    [count("promises"), "Zusage", "Zusagen"],
    [count("followUps"), "Wiedervorlage", "Wiedervorlagen"],
    [count("newLeads"), "neue Anfrage", "neue Anfragen"],
    [count("held"), "Anfrage zur Prüfung", "Anfragen zur Prüfung"],
  ] as const;
  const named = parts
    .filter(([n]) => n > 0)
    .map(([n, one, many]) => `${n} ${n === 1 ? one : many}`);
  return `Ihre Übersicht für heute: ${named.join(", ") || "nichts fällig"}`;
}
