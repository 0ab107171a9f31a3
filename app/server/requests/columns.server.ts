import { sql } from "drizzle-orm";
import { cutAtWord, formatDateTime, formatRequestId, summaryPreview } from "~/lib/format";
import { isPlainSummary } from "~/lib/plain-summary";
import type {
  AttachmentJson,
  RequestJson,
  RequestListItem,
  RequestPromises,
} from "~/lib/request-json";
import { STATUS_LABELS } from "~/lib/request-list";
import { affiliateCodes, requests } from "~db/schema";
import { stageOf } from "../pipeline/config.server";
import {
  type AttachmentRow,
  defineRequestColumns,
  type ListKeys,
  listCell,
  type RequestColumn,
} from "./column-registry.server";

/** Enough of a long text for the row's preview (summaryPreview cuts at 140 characters). */
const PREVIEW_SOURCE = 400;
/** The company line of a row: the first line of the description, cut at a word. */
const COMPANY_MAX = 60;

export function serializeAttachment(row: AttachmentRow): AttachmentJson {
  return {
    id: row.id,
    filename: row.filename,
    originalName: row.originalName,
    size: row.size,
    uploadedAt: row.uploadedAt.toISOString(),
  };
}

/** The host of an external referrer ("www.google.com"), or null. */
function referrerHost(referrer: string | null): string | null {
  if (!referrer) return null;
  try {
    return new URL(referrer).host || null;
  } catch {
    return null;
  }
}

const text = (value: string | null) => value ?? "";

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const cellTime = (value: string | null) => (value ? formatDateTime(value) : "");

type PromiseColumns = {
  contactDueAt: Date | null;
  contactDoneAt: Date | null;
  trialDueAt: Date | null;
  trialDoneAt: Date | null;
};

/** "Erstkontakt fällig 08.12.2026, 15:00, erledigt 07.12.2026, 10:12 · Testversion fällig …". */
function promisesCell(p: RequestPromises): string {
  const one = (label: string, due: string | null, done: string | null) =>
    due || done
      ? `${label}${due ? ` fällig ${cellTime(due)}` : ""}${done ? `, erledigt ${cellTime(done)}` : ""}`
      : "";
  return [
    one("Erstkontakt", p.contact.dueAt, p.contact.doneAt),
    one("Testversion", p.trial.dueAt, p.trial.doneAt),
  ]
    .filter(Boolean)
    .join(" · ");
}

/** The two promises of a row (ADR 346) as the JSON and the list item carry them. */
const promisesOf = (r: PromiseColumns): RequestPromises => ({
  contact: { dueAt: iso(r.contactDueAt), doneAt: iso(r.contactDoneAt) },
  trial: { dueAt: iso(r.trialDueAt), doneAt: iso(r.trialDoneAt) },
});

/**
 * The columns of a request (ADR 242), in the request JSON's key order (spec §3). Each entry: the
 * JSON key and value; `list`, the admin list row's cell (`listCell(itemKey, what it selects, value)`;
 * the row query joins the affiliate code, everything else comes from `requests`); `csv`, the
 * export's header and cell (`position` = its column in the CSV). A new column is one entry here,
 * its field in `RequestJson`/`RequestListItem` (app/lib/request-json.ts) and its schema change.
 */
const entries = [
  {
    key: "id",
    json: (r) => r.id,
    list: listCell("id", { id: requests.id }, (r) => r.id),
    csv: { position: 1, label: "Nr.", cell: (id) => `#${formatRequestId(id)}` },
  },
  {
    key: "name",
    json: (r) => r.name,
    list: listCell("name", { name: requests.name }, (r) => r.name),
    csv: { position: 3, label: "Name", cell: (name) => name },
  },
  { key: "email", json: (r) => r.email, csv: { position: 4, label: "E-Mail", cell: text } },
  { key: "phone", json: (r) => r.phone, csv: { position: 5, label: "Telefon", cell: text } },
  {
    key: "companyDescription",
    json: (r) => r.companyDescription,
    list: listCell(
      "company",
      { company: sql<string>`substr(${requests.companyDescription}, 1, ${PREVIEW_SOURCE})` },
      (r) => cutAtWord(r.company.split("\n")[0]?.trim() ?? "", COMPANY_MAX),
    ),
    csv: { position: 6, label: "Unternehmen", cell: text },
  },
  {
    key: "description",
    json: (r) => r.description,
    csv: { position: 7, label: "Projektbeschreibung", cell: text },
  },
  {
    key: "summary",
    // A stored AI answer that is no plain text (`{}`) is never shown: null, like none yet.
    json: (r) => (isPlainSummary(r.summary) ? r.summary : null),
    // The row's preview: the summary, else the description (both cut in SQL, summaryPreview cuts).
    list: listCell(
      "preview",
      {
        summary: sql<string | null>`substr(${requests.summary}, 1, ${PREVIEW_SOURCE})`,
        description: sql<string>`substr(${requests.description}, 1, ${PREVIEW_SOURCE})`,
      },
      (r) => summaryPreview(r),
    ),
    csv: { position: 8, label: "Zusammenfassung", cell: text },
  },
  {
    key: "status",
    json: (r) => r.status,
    list: listCell("status", { status: requests.status }, (r) => r.status),
    csv: { position: 9, label: "Status", cell: (status) => STATUS_LABELS[status] },
  },
  {
    key: "createdAt",
    json: (r) => r.createdAt.toISOString(),
    list: listCell("createdAt", { createdAt: requests.createdAt }, (r) =>
      r.createdAt.toISOString(),
    ),
    csv: { position: 2, label: "Eingegangen", cell: formatDateTime },
  },
  {
    key: "updatedAt",
    json: (r) => r.updatedAt.toISOString(),
    csv: { position: 15, label: "Zuletzt geändert", cell: formatDateTime },
  },
  {
    key: "archived",
    json: (r) => r.archived,
    list: listCell("archived", { archived: requests.archived }, (r) => r.archived),
    csv: { position: 10, label: "Archiviert", cell: (archived) => (archived ? "Ja" : "Nein") },
  },
  {
    key: "audioPath",
    json: (r) => r.audioKey,
    list: listCell("hasAudio", { hasAudio: sql<number>`${requests.audioKey} IS NOT NULL` }, (r) =>
      Boolean(r.hasAudio),
    ),
  },
  {
    key: "attachments",
    json: (_r, files) => files.map(serializeAttachment),
    list: listCell("files", {}, (_r, files) => files),
    csv: { position: 14, label: "Anhänge", cell: (files) => String(files.length) },
  },
  { key: "preparationData", json: (r) => r.preparationData ?? {} },
  {
    key: "assigned_to",
    json: (_r, _files, assignedTo) => assignedTo,
    list: listCell("assigned_to", {}, (_r, _files, assignedTo) => assignedTo),
    csv: {
      position: 13,
      label: "Zugewiesen",
      cell: (ids, { usernames }) => ids.map((id) => usernames.get(id) ?? `#${id}`).join(", "),
    },
  },
  {
    key: "affiliateCode",
    json: (r) => r.affiliateCode,
    // The partner and discount of the code (null when the code was deleted since).
    list: listCell(
      "code",
      {
        code: requests.affiliateCode,
        partner: affiliateCodes.name,
        discount: affiliateCodes.discountValue,
      },
      (r: { code: string | null; partner: string | null; discount: number | null }) =>
        r.code ? { code: r.code, partner: r.partner ?? null, discount: r.discount ?? null } : null,
    ),
    csv: { position: 11, label: "Affiliate-Code", cell: text },
  },
  {
    key: "attribution",
    json: (r) => ({
      source: r.attributionSource,
      medium: r.attributionMedium,
      campaign: r.attributionCampaign,
      referrer: r.attributionReferrer,
      landingPath: r.attributionLandingPath,
    }),
    // utm_source, else the external referrer's host.
    list: listCell(
      "source",
      { source: requests.attributionSource, referrer: requests.attributionReferrer },
      (r) => r.source ?? referrerHost(r.referrer),
    ),
    csv: { position: 12, label: "Quelle", cell: (a) => a.source ?? "" },
  },
  {
    key: "stage",
    json: (r) => {
      const stage = stageOf(r);
      return { id: stage.id, name: stage.name };
    },
    list: listCell("stage", { stage: requests.stage }, (r) => r.stage),
    csv: { position: 16, label: "Phase", cell: (stage) => stage.name },
  },
  {
    key: "lostReason",
    json: (r) => r.lostReason,
    csv: { position: 17, label: "Grund", cell: text },
  },
  {
    key: "promises",
    json: promisesOf,
    list: listCell(
      "promises",
      {
        contactDueAt: requests.contactDueAt,
        contactDoneAt: requests.contactDoneAt,
        trialDueAt: requests.trialDueAt,
        trialDoneAt: requests.trialDoneAt,
      },
      promisesOf,
    ),
    csv: { position: 18, label: "Versprechen", cell: promisesCell },
  },
  {
    key: "trialUrl",
    json: (r) => r.trialUrl,
    csv: { position: 19, label: "Testversion", cell: text },
  },
] as const satisfies readonly RequestColumn<RequestJson, RequestListItem>[];

/** The registry of the request JSON (API, webhooks), the admin list's rows and the CSV export. */
export const requestColumns = defineRequestColumns<RequestJson, RequestListItem>(entries);

// Compile-time completeness: every key of the wire types has its entry (a missing one fails here,
// naming it).
type Entry = (typeof entries)[number];
type NoneMissing<Missing> = [Missing] extends [never] ? true : { missing: Missing };
type Assert<T extends true> = T;
export type EveryJsonKeyHasAColumn = Assert<NoneMissing<Exclude<keyof RequestJson, Entry["key"]>>>;
export type EveryListKeyHasAColumn = Assert<
  NoneMissing<Exclude<keyof RequestListItem, ListKeys<Entry>>>
>;
