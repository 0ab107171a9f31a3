import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import type { RequestJson, RequestListItem } from "~/lib/request-json";
import { parseRequestListQuery } from "~/lib/request-list";
import { admins, attachments, requestAssignees, requests } from "~db/schema";
import { db } from "../platform/db.server";
import { requestsCsv } from "../privacy/csv-export.server";
import {
  type AnyColumnRegistry,
  defineRequestColumns,
  listCell,
  type RequestColumn,
} from "./column-registry.server";
import { requestColumns } from "./columns.server";
import { loadRequestListItems } from "./list-items.server";
import { serializeRequests } from "./serialize.server";

// ADR 242: a new request column is one registry entry. This fixture adds one (the name's length,
// read in SQL for the list) through the registry alone and finds it in the JSON, the list item
// and the CSV; nothing else in the app knows about it.
type WithLength<T> = T & { nameLength: number };
const nameLength: RequestColumn<WithLength<RequestJson>, WithLength<RequestListItem>> = {
  key: "nameLength",
  json: (r) => r.name.length,
  list: listCell("nameLength", { nameLength: sql<number>`length(${requests.name})` }, (r) =>
    Number(r.nameLength),
  ),
  csv: { label: "Namenslänge", cell: (n) => String(n) },
};
const extended = defineRequestColumns<WithLength<RequestJson>, WithLength<RequestListItem>>([
  ...requestColumns.entries,
  nameLength,
]);

const HEADER =
  "Nr.;Eingegangen;Name;E-Mail;Telefon;Unternehmen;Projektbeschreibung;Zusammenfassung;Status;Archiviert;Affiliate-Code;Quelle;Zugewiesen;Anhänge;Zuletzt geändert";

let adminId = 0;
let id = 0;
beforeAll(() => {
  adminId = db()
    .insert(admins)
    .values({ username: "spalte", email: "spalte@example.com", passwordHash: "x" })
    .returning({ id: admins.id })
    .get().id;
  id = db()
    .insert(requests)
    .values({
      name: "Mia Müller",
      email: "mia@example.com",
      phone: "+49 30 1",
      companyDescription: "Bäckerei Müller\nSeit 1920",
      description: "Eine App für Vorbestellungen",
      attributionSource: "newsletter",
    })
    .returning({ id: requests.id })
    .get().id;
  db()
    .insert(attachments)
    .values({
      requestId: id,
      filename: "f1",
      originalName: "plan.pdf",
      mimeType: "application/pdf",
      size: 10,
    })
    .run();
  db().insert(requestAssignees).values({ requestId: id, adminId }).run();
});

async function csvText(columns: AnyColumnRegistry = requestColumns) {
  const query = parseRequestListQuery(new URLSearchParams(""));
  const text = await new Response(requestsCsv(query, adminId, columns)).text();
  return text.replace(/^\uFEFF/, "").split("\r\n");
}

const row = () => db().select().from(requests).all();

describe("a column added through the registry alone", () => {
  it("appears in the request JSON, last, after the spec's keys", () => {
    const [json] = serializeRequests(row(), extended);
    expect(json.nameLength).toBe(10);
    expect(Object.keys(json)).toEqual([...Object.keys(serializeRequests(row())[0]), "nameLength"]);
    expect(json).toEqual({ ...serializeRequests(row())[0], nameLength: 10 });
  });

  it("appears in the list item, read by the list's one row query", () => {
    const [item] = loadRequestListItems([id], extended);
    expect(item).toEqual({ ...loadRequestListItems([id])[0], nameLength: 10 });
  });

  it("appears in the CSV as the last column, with its header", async () => {
    const [header, line] = await csvText(extended);
    const [plainHeader, plainLine] = await csvText();
    expect(header).toBe(`${plainHeader};Namenslänge`);
    const cells = line.split(";");
    expect(cells.slice(0, -1)).toEqual(plainLine.split(";"));
    expect(cells.at(-1)).toBe("10");
  });

  it("is in none of them without the extended registry", async () => {
    expect(serializeRequests(row())[0]).not.toHaveProperty("nameLength");
    expect(loadRequestListItems([id])[0]).not.toHaveProperty("nameLength");
    expect((await csvText())[0]).not.toContain("Namenslänge");
  });
});

describe("the request registry", () => {
  it("keeps the spec's JSON key order (§3) and the CSV's column order", async () => {
    // Columns added later follow these.
    expect(Object.keys(serializeRequests(row())[0]).slice(0, 17)).toEqual([
      "id",
      "name",
      "email",
      "phone",
      "companyDescription",
      "description",
      "summary",
      "status",
      "createdAt",
      "updatedAt",
      "archived",
      "audioPath",
      "attachments",
      "preparationData",
      "assigned_to",
      "affiliateCode",
      "attribution",
    ]);
    const [header, line] = await csvText();
    expect(header.slice(0, HEADER.length)).toBe(HEADER);
    const date = /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/;
    expect(line.split(";").slice(0, 15)).toEqual([
      `#${String(id).padStart(4, "0")}`,
      expect.stringMatching(date),
      "Mia Müller",
      "mia@example.com",
      "+49 30 1",
      // A line break is quoted (csv-export: a lone "\n" split the row in Excel).
      '"Bäckerei Müller\nSeit 1920"',
      "Eine App für Vorbestellungen",
      "",
      "Neu",
      "Nein",
      "",
      "newsletter",
      "spalte",
      "1",
      expect.stringMatching(date),
    ]);
  });

  it.each([
    ["a JSON key twice", [nameLength, nameLength]],
    [
      "a CSV label twice",
      [nameLength, { key: "other", json: () => 1, csv: { label: "Namenslänge", cell: String } }],
    ],
    [
      "a list key twice",
      [nameLength, { key: "other", json: () => 1, list: listCell("nameLength", {}, () => 1) }],
    ],
    [
      "one selection name for two things",
      [
        nameLength,
        {
          key: "other",
          json: () => 1,
          list: listCell("other", { nameLength: requests.id }, () => 1),
        },
      ],
    ],
  ])("refuses %s when it is defined", (_name, entries) => {
    expect(() =>
      defineRequestColumns(
        entries as RequestColumn<WithLength<RequestJson> & { other: number }, never>[],
      ),
    ).toThrow(/Request column registry/);
  });
});
