import type { ApiScope } from "~/lib/api-tokens";
import type { FollowUpJson } from "~/lib/follow-ups";
import type { NoteJson } from "~/lib/request-notes";
import { followUpsOf } from "../follow-ups/follow-ups.server";
import { notesOf } from "../notes/notes.server";

/**
 * The team's own work on a request in its admin JSON (ADRs 350, 351): the notes and the open
 * follow-up. A session sees both; an API token only what its scopes name (`notes:read`,
 * `followups:read`) — without them the keys are absent, never empty lists that look like "none".
 */
export type WorkItemsVisible = { notes: boolean; followUps: boolean };
export const ALL_WORK_ITEMS: WorkItemsVisible = { notes: true, followUps: true };

/**
 * What an admin call may see: everything for a session (or a job), an API token's scopes
 * otherwise (`tokenScopes` of the caller, set by the token check).
 */
export function workItemsVisibleTo(caller: object | string): WorkItemsVisible {
  const scopes =
    typeof caller === "object" && "tokenScopes" in caller
      ? (caller.tokenScopes as readonly ApiScope[] | undefined)
      : undefined;
  if (!scopes) return ALL_WORK_ITEMS;
  return { notes: scopes.includes("notes:read"), followUps: scopes.includes("followups:read") };
}

export type WorkItems = { notes?: NoteJson[]; followUp?: FollowUpJson | null };

/** The work items of `ids` (2 queries at most), as a function of a request's id. */
export function workItemsOf(ids: number[], visible: WorkItemsVisible): (id: number) => WorkItems {
  const notes = visible.notes ? notesOf(ids) : null;
  const followUps = visible.followUps ? followUpsOf(ids) : null;
  return (id) => ({
    ...(notes ? { notes: notes.get(id) ?? [] } : {}),
    ...(followUps ? { followUp: followUps.get(id) ?? null } : {}),
  });
}
