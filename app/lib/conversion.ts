/** The conversion dashboard's figures (wire type between app/server/dashboard and the charts). */
export type ConversionStats = {
  /** 12 weeks (Monday 00:00 Europe/Berlin), oldest first; the last is the current week. */
  weeks: { start: string; count: number }[];
  /** Requests of the 12 weeks, those with a booked (not cancelled) demo, and the share (0..1). */
  demo: { requests: number; booked: number; share: number };
  /** Requests of the 12 weeks by utm_source / affiliate code, largest first (null: none). */
  bySource: { label: string | null; count: number }[];
  byAffiliate: { label: string | null; count: number }[];
  /** Median time from creation to the first status change, over requests of the 12 weeks. */
  firstChange: { medianMs: number | null; changed: number };
};

export const CONVERSION_WEEKS = 12;

/** "45 Min.", "3,5 Std.", "2,1 Tage" */
export function formatDuration(ms: number): string {
  const minutes = ms / 60_000;
  const one = (n: number) => n.toLocaleString("de-DE", { maximumFractionDigits: 1 });
  if (minutes < 60) return `${Math.max(1, Math.round(minutes))} Min.`;
  const hours = minutes / 60;
  if (hours < 48) return `${one(hours)} Std.`;
  return `${one(hours / 24)} Tage`;
}

/** "42 %" */
export const formatShare = (share: number) =>
  `${Math.round(share * 100).toLocaleString("de-DE")} %`;
