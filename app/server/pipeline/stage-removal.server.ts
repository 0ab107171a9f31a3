import { count, inArray } from "drizzle-orm";
import type { Pipeline } from "~/lib/pipeline";
import { requests } from "~db/schema";
import { db } from "../platform/db.server";

const requestsWord = (n: number) => (n === 1 ? "1 Anfrage" : `${n} Anfragen`);

/**
 * A stage that holds requests (archived and held ones included) can be renamed and moved, but
 * not removed, and its status cannot change (ADR 345): its requests would lose their place or
 * their status would no longer be the stage's. The save is refused with the stage's count at
 * the list (removed) or at the stage's status (changed); nothing is moved behind the admin's back.
 */
export function stageChangeErrors(before: Pipeline, next: Pipeline): Record<string, string[]> {
  const after = new Map(next.stages.map((s, index) => [s.id, { stage: s, index }]));
  const touched = before.stages.filter((s) => {
    const now = after.get(s.id);
    return !now || now.stage.status !== s.status;
  });
  if (!touched.length) return {};
  const held = new Map(
    db()
      .select({ stage: requests.stage, n: count() })
      .from(requests)
      // Archived and held ones too: the board's index (stage, archived, …) answers it.
      .where(
        inArray(
          requests.stage,
          touched.map((s) => s.id),
        ),
      )
      .groupBy(requests.stage)
      .all()
      .map((r) => [r.stage, r.n]),
  );
  const errors: Record<string, string[]> = {};
  for (const stage of touched) {
    const n = held.get(stage.id) ?? 0;
    if (!n) continue;
    const now = after.get(stage.id);
    const key = now ? `pipeline.stages.${now.index}.status` : "pipeline.stages";
    const message = now
      ? `„${stage.name}“ enthält noch ${requestsWord(n)} – ihr Status kann erst geändert werden, wenn sie leer ist.`
      : `„${stage.name}“ enthält noch ${requestsWord(n)} – verschieben Sie sie zuerst in eine andere Phase, dann kann „${stage.name}“ entfernt werden.`;
    errors[key] = [...(errors[key] ?? []), message];
  }
  return errors;
}
