import { tasksOf } from "~/server/follow-ups/follow-ups.server";
import { adminApi, noStoreJson } from "~/server/http/api-route.server";

/**
 * GET /api/admin/tasks, the twin of "Meine Aufgaben" (ADR 351): the caller's open follow-ups by
 * bucket, `{ today, buckets: { overdue | today | week | later: { items, total } } }`, at most 50
 * items per bucket, earliest first.
 */
export const loader = adminApi(
  { fallback: "Fehler beim Abrufen der Aufgaben", scope: "followups:read" },
  ({ admin }) => noStoreJson({ ...tasksOf(admin.id) }),
);
