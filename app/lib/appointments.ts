/** Pure helpers of the appointments page (Termine) and the booking dialog. */

import { normalizeStatusFilter } from "./appointment-status";
import type { CalendarChange } from "./caldav";

export {
  STATUS_GROUPS,
  statusFilterLabel,
  statusGroup,
  statusLabel,
  statusTone,
} from "./appointment-status";

export type AppointmentListQuery = {
  page: number;
  limit: number;
  filter: TimeFilter;
  sort: AppointmentSort;
  /** Group keys and/or raw statuses; empty = every status. */
  statuses: string[];
  search: string;
};

export const APPOINTMENT_PAGE_SIZE = 10;

/**
 * The one reading of the list query, for the page and GET /api/admin/appointments alike: unknown
 * filter/sort fall back to the defaults, page >= 1, limit 1..100 (default 10), search cut at 200.
 */
export function readAppointmentQuery(p: URLSearchParams): AppointmentListQuery {
  const int = (name: string, fallback: number) =>
    Number.parseInt(p.get(name) ?? "", 10) || fallback;
  return {
    page: Math.max(1, int("page", 1)),
    limit: Math.min(100, Math.max(1, int("limit", APPOINTMENT_PAGE_SIZE))),
    filter: TIME_FILTERS.find((f) => f === p.get("filter")) ?? "all",
    sort: APPOINTMENT_SORTS.find((s) => s === p.get("sort")) ?? "newest",
    statuses: normalizeStatusFilter(p.getAll("status")),
    search: (p.get("search") ?? "").slice(0, 200),
  };
}

/** The status shown: calcomData.status wins over the plain status; default PENDING (spec §3). */
export function effectiveStatus(plain?: string | null, calcom?: string | null): string {
  return (calcom || plain || "PENDING").toUpperCase();
}

/** 'Aktualisiert Nie', 'Gerade eben', 'vor N Min', 'vor Nh', 'vor Nd' (spec §2). */
export function cacheAgeLabel(ageMinutes: number | null | undefined): string {
  if (ageMinutes === null || ageMinutes === undefined || Number.isNaN(ageMinutes))
    return "Aktualisiert Nie";
  if (ageMinutes < 1) return "Aktualisiert Gerade eben";
  if (ageMinutes < 60) return `Aktualisiert vor ${Math.floor(ageMinutes)} Min`;
  if (ageMinutes < 24 * 60) return `Aktualisiert vor ${Math.floor(ageMinutes / 60)}h`;
  return `Aktualisiert vor ${Math.floor(ageMinutes / (24 * 60))}d`;
}

/** 'Zeige X bis Y von Z Terminen'. */
export function paginationText(page: number, limit: number, total: number): string {
  const from = total === 0 ? 0 : (page - 1) * limit + 1;
  const to = Math.min(total, page * limit);
  return `Zeige ${from} bis ${to} von ${total} Terminen`;
}

export const TIME_FILTERS = ["all", "upcoming", "past"] as const;
export type TimeFilter = (typeof TIME_FILTERS)[number];
export const TIME_FILTER_LABELS: Record<TimeFilter, string> = {
  all: "Alle Termine",
  upcoming: "Kommende Termine",
  past: "Vergangene Termine",
};
export const APPOINTMENT_SORTS = ["newest", "next"] as const;
export type AppointmentSort = (typeof APPOINTMENT_SORTS)[number];
export const APPOINTMENT_SORT_LABELS: Record<AppointmentSort, string> = {
  newest: "Neuste",
  next: "Nächste Termine",
};

/** The empty-list message for the current filters (spec §2). */
export function emptyMessage(search: string, filter: TimeFilter): string {
  if (search.trim()) return "Keine Termine entsprechen den Suchkriterien.";
  if (filter === "upcoming") return "Es sind keine zukünftigen Termine vorhanden.";
  if (filter === "past") return "Es sind keine vergangenen Termine vorhanden.";
  return "Es wurden noch keine Termine gebucht.";
}

type Searchable = {
  request: {
    name?: string;
    email?: string;
    phone?: string;
    description?: string;
    summary?: string | null;
  } | null;
};

/**
 * Search over the linked request: contact matches (name, email, phone) before content matches
 * (description, summary), case-insensitive; non-matching items are removed. Stable within groups.
 */
export function searchAppointments<T extends Searchable>(items: T[], term: string): T[] {
  const q = term.trim().toLowerCase();
  if (!q) return items;
  const has = (v?: string | null) => (v ?? "").toLowerCase().includes(q);
  const contact: T[] = [];
  const content: T[] = [];
  for (const item of items) {
    const r = item.request;
    if (!r) continue;
    if (has(r.name) || has(r.email) || has(r.phone)) contact.push(item);
    else if (has(r.description) || has(r.summary)) content.push(item);
  }
  return [...contact, ...content];
}

/** The spec's Appointment JSON (§3). */
export type AppointmentJson = {
  id: number;
  startTime: string;
  endTime: string;
  calcomEventId: string | null;
  eventTypeKey: string;
  eventType: { name: string; duration: number };
  status: string;
  calcomData: { status: string; location: string | null; calcomUrl: string | null };
  request: {
    id: number;
    name: string;
    email: string;
    phone: string;
    description: string;
    summary: string;
  } | null;
  cacheInfo: { age: number | null };
  provider: "builtin" | "calcom";
  /** The demo's video link (ADR 267): its own, else the settings' fixed room; null: none yet. */
  videoUrl: string | null;
  /** Whether `videoUrl` is the appointment's own link (not the fixed room). */
  ownVideoUrl: boolean;
  /**
   * The team's CalDAV calendars (ADRs 336–338): the admin who takes the demo (per-admin hosts),
   * a note when it was booked while a calendar could not answer, and an edit made in the calendar.
   */
  calendar: {
    host: { id: number; username: string } | null;
    note: string | null;
    change: CalendarChange;
  };
  /**
   * Booked while its request was held in the spam quarantine, and the slot was taken before the
   * release (ADR 355): the card says "Termin nicht mehr frei". Admin answers only.
   */
  slotGone?: boolean;
};
