import { parseAuditQuery } from "~/lib/audit";
import { requireAdmin } from "~/server/accounts/auth.server";
import { auditCsvResponse } from "~/server/privacy/audit-csv.server";
import type { Route } from "./+types/audit-csv";

/** GET /admin/audit.csv with the filters of /admin/audit: a plain link, works without JS. */
export async function loader({ request }: Route.LoaderArgs) {
  const admin = await requireAdmin(request);
  return auditCsvResponse(parseAuditQuery(new URL(request.url).searchParams), admin);
}
