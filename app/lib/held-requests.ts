/**
 * Words and the link for requests held in the spam quarantine, wherever admins meet them (ADR 327):
 * the dashboard's card and summary row, the badge of the "Anfragen" tab.
 */
export const QUARANTINE_HREF = "/admin/requests?tab=quarantine";

/** The one summary row of "Neuste Anfragen": "3 zur Prüfung" (never one row each). */
export const heldSummary = (count: number) => `${count} zur Prüfung`;

/** What the tab's badge means, for screen readers: "1 Anfrage wartet auf Prüfung". */
export const heldBadgeText = (count: number) =>
  count === 1 ? "1 Anfrage wartet auf Prüfung" : `${count} Anfragen warten auf Prüfung`;
