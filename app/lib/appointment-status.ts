/**
 * Appointment statuses (spec §4), one place for group, German label, colour tone and filter keys.
 * ACCEPTED/CONFIRMED green, PENDING yellow, CANCELLED red, DELETED grey, anything else neutral.
 */

/**
 * A booking recorded while its request is held in the spam quarantine that holds no slot
 * (ADRs 252, 355): a Cal.com booking until the release forwards it, a built-in one above the
 * held bookings' daily cap until the release checks its slot again.
 */
export const HELD_STATUS = "HELD";

/** What admins see of a held booking whose slot was taken before its release (ADR 355). */
export const SLOT_GONE = "Termin nicht mehr frei";

export const STATUS_GROUPS = ["confirmed", "pending", "cancelled", "other"] as const;
export type StatusGroup = (typeof STATUS_GROUPS)[number];

/** The statuses of each group; 'other' holds every status not listed here. */
export const GROUP_STATUSES: Record<Exclude<StatusGroup, "other">, readonly string[]> = {
  confirmed: ["ACCEPTED", "CONFIRMED"],
  pending: ["PENDING"],
  cancelled: ["CANCELLED", "DELETED"],
};
export const GROUPED_STATUSES: readonly string[] = Object.values(GROUP_STATUSES).flat();

export const STATUS_GROUP_LABELS: Record<StatusGroup, string> = {
  confirmed: "Bestätigt",
  pending: "Ausstehend",
  cancelled: "Abgesagt",
  other: "Sonstige",
};

const STATUS_LABELS: Record<string, string> = {
  ACCEPTED: "Bestätigt",
  CONFIRMED: "Bestätigt",
  PENDING: "Ausstehend",
  CANCELLED: "Abgesagt",
  DELETED: "Gelöscht",
  REJECTED: "Abgelehnt",
  AWAITING_HOST: "Wartet auf Bestätigung",
  // A held request's booking that holds no slot until its release (ADR 355).
  [HELD_STATUS]: "Vorgemerkt (Anfrage in Prüfung)",
};

export type StatusTone = "green" | "yellow" | "red" | "grey" | "neutral";

const upper = (status: string) => status.trim().toUpperCase();

export function statusGroup(status: string): StatusGroup {
  const s = upper(status);
  for (const group of ["confirmed", "pending", "cancelled"] as const) {
    if (GROUP_STATUSES[group].includes(s)) return group;
  }
  return "other";
}

/** German label of any status; unknown ones read 'Unbekannt (RAW)'. */
export function statusLabel(status: string): string {
  const s = upper(status);
  return STATUS_LABELS[s] ?? `Unbekannt (${s || "–"})`;
}

export function statusTone(status: string): StatusTone {
  const s = upper(status);
  if (s === "ACCEPTED" || s === "CONFIRMED") return "green";
  if (s === "PENDING") return "yellow";
  if (s === "CANCELLED") return "red";
  if (s === "DELETED") return "grey";
  return "neutral";
}

/** Cancelled and deleted appointments are shown at half opacity. */
export const isFaded = (status: string) => statusGroup(status) === "cancelled";

const isGroup = (value: string): value is StatusGroup =>
  (STATUS_GROUPS as readonly string[]).includes(value);

/**
 * A status filter as sent by the page or an API client: repeated and/or comma-separated values,
 * group keys (any case) kept as lower-case keys, every other status upper-cased; blanks dropped.
 */
export function normalizeStatusFilter(values: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of values.flatMap((v) => v.split(","))) {
    const value = raw.trim();
    if (!value) continue;
    const key = isGroup(value.toLowerCase()) ? value.toLowerCase() : value.toUpperCase();
    if (!out.includes(key)) out.push(key);
  }
  return out;
}

/** The groups a status filter (group keys or raw statuses) reaches. */
export function filterGroups(values: readonly string[]): StatusGroup[] {
  const found = new Set<StatusGroup>();
  for (const value of values) found.add(isGroup(value) ? value : statusGroup(value));
  return STATUS_GROUPS.filter((g) => found.has(g));
}

/** True when the filter selects nothing or every group (no restriction). */
export function filterIsAll(values: readonly string[]): boolean {
  return values.length === 0 || filterGroups(values).length === STATUS_GROUPS.length;
}

/**
 * What a filter restricts to: exact raw statuses (API clients may send ACCEPTED, ...), plus
 * the statuses of selected groups; `other` = any status outside the known groups.
 */
export function filterStatuses(values: readonly string[]): { statuses: string[]; other: boolean } {
  const statuses = new Set<string>();
  let other = false;
  for (const value of values) {
    const group = isGroup(value) ? value : null;
    if (group === "other") other = true;
    else if (group) for (const s of GROUP_STATUSES[group]) statuses.add(s);
    else if (value.trim()) statuses.add(upper(value));
  }
  return { statuses: [...statuses], other };
}

/** 'Alle' when all (or none) are selected, else the labels joined, cut at 60 characters with '...'. */
export function statusFilterLabel(selected: readonly string[]): string {
  if (filterIsAll(selected)) return "Alle";
  const text = selected
    .map((v) => (isGroup(v) ? STATUS_GROUP_LABELS[v] : (STATUS_LABELS[upper(v)] ?? v)))
    .join(", ");
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}
