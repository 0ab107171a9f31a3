/** Request statuses (spec §4): any order, set freely by admins. */
export const REQUEST_STATUSES = ["New", "In Progress", "Done"] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];
