import { Readable } from "node:stream";
import { stringify } from "csv-stringify";
import { AUDIT_LABELS, type AuditQuery, isAuditAction } from "~/lib/audit";
import { neutraliseCell } from "~/lib/csv-cell";
import { type AuditActor, audit, auditEntries } from "./audit.server";

function* rows(query: AuditQuery) {
  for (const e of auditEntries(query)) {
    const action = isAuditAction(e.action) ? AUDIT_LABELS[e.action] : e.action;
    yield [e.at, e.actor, e.via, action, e.target, e.details ?? ""].map(neutraliseCell);
  }
}

/**
 * GET /admin/audit.csv?<the page's filters>: the audit log as CSV for German Excel (UTF-8 with BOM,
 * `;`, formula-like cells neutralised), streamed; the export itself is audited.
 */
export function auditCsvResponse(query: AuditQuery, actor: AuditActor, now = new Date()) {
  audit(actor, "export-csv", "Protokoll", {
    wer: query.actor || null,
    aktion: query.action || null,
    von: query.from || null,
    bis: query.to || null,
  });
  const csv = stringify({
    bom: true,
    delimiter: ";",
    header: true,
    columns: ["Zeitpunkt (UTC)", "Wer", "Über", "Aktion", "Ziel", "Details"],
    record_delimiter: "windows",
    quoted_match: /[\r\n]/,
  });
  Readable.from(rows(query)).pipe(csv);
  return new Response(Readable.toWeb(csv) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="protokoll-${now.toISOString().slice(0, 10)}.csv"`,
      "Cache-Control": "no-store",
    },
  });
}
