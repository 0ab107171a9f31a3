import { getZodConstraint } from "@conform-to/zod/v4";
import { eq, sql } from "drizzle-orm";
import { text } from "drizzle-orm/sqlite-core";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { ContactForm } from "~/components/landing/contact-form";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { RequestFormSchema } from "~/lib/request-form";
import type { RequestJson, RequestListItem } from "~/lib/request-json";
import { parseRequestListQuery } from "~/lib/request-list";
import { uploadLimits } from "~/lib/upload-rules";
import { db } from "~/server/platform/db.server";
import { requestsCsv } from "~/server/privacy/csv-export.server";
import { eraseRequest } from "~/server/privacy/erasure.server";
import {
  defineRequestColumns,
  listCell,
  type RequestColumn,
} from "~/server/requests/column-registry.server";
import { requestColumns } from "~/server/requests/columns.server";
import { loadRequestListItems } from "~/server/requests/list-items.server";
import { serializeRequests } from "~/server/requests/serialize.server";
import { submitRequest } from "~/server/requests/submit.server";
import { admins, requests } from "~db/schema";

// README "A new visitor field" (ADR 312), walked end to end: a field "companyWebsite" added by the
// recipe's steps alone — its entry in lib/contact-fields.ts (here: the module with one more entry),
// its column (here: added to the test's database and to the drizzle table, as `db/schema.ts` and
// its migration would), its field in the wire types and its registry entry — is shown by the form,
// checked by the one schema, stored by the submission, found in the request JSON, the list row and
// the CSV, and erased with the rest. Nothing else in the app is told about it.

// A visitor's ordinary submission (without a proof of work it would wait in the quarantine).
vi.hoisted(() => {
  process.env.SPAM_PROTECTION = "off";
});

vi.mock("~/lib/contact-fields", async (importOriginal) => {
  const actual = await importOriginal<typeof import("~/lib/contact-fields")>();
  const fields = {
    ...actual.CONTACT_FIELDS,
    companyWebsite: {
      label: "Website des Unternehmens",
      min: 0,
      max: 100,
      input: { type: "url" as const },
    },
  };
  return { ...actual, ...actual.contactFieldsOf(fields), CONTACT_FIELDS: fields };
});

/** The drizzle column of the new field, as `db/schema.ts` would declare it (built onto `requests`). */
function addColumn() {
  db().$client.exec("ALTER TABLE requests ADD COLUMN company_website text");
  const builder = text("company_website") as unknown as { build(table: unknown): unknown };
  const column = builder.build(requests);
  const columns = (requests as unknown as Record<symbol, Record<string, unknown>>)[
    Symbol.for("drizzle:Columns")
  ] as Record<string, unknown>;
  columns.companyWebsite = column;
  (requests as unknown as Record<string, unknown>).companyWebsite = column;
  return column as typeof requests.name;
}

type WithWebsite<T> = T & { companyWebsite: string };
let website: typeof requests.name;
let extended: ReturnType<
  typeof defineRequestColumns<WithWebsite<RequestJson>, WithWebsite<RequestListItem>>
>;
let adminId = 0;

beforeAll(() => {
  website = addColumn();
  const entry: RequestColumn<WithWebsite<RequestJson>, WithWebsite<RequestListItem>> = {
    key: "companyWebsite",
    json: (r) => String((r as unknown as { companyWebsite: string | null }).companyWebsite ?? ""),
    list: listCell("companyWebsite", { companyWebsite: website }, (r) =>
      String(r.companyWebsite ?? ""),
    ),
    csv: { label: "Website", cell: (value) => value },
  };
  extended = defineRequestColumns<WithWebsite<RequestJson>, WithWebsite<RequestListItem>>([
    ...requestColumns.entries,
    entry,
  ]);
  adminId = db()
    .insert(admins)
    .values({ username: "feld", email: "feld@example.com", passwordHash: "x" })
    .returning({ id: admins.id })
    .get().id;
});

const visitor = {
  name: "Wanda Web",
  email: "wanda@example.com",
  phone: "+49 30 123456",
  companyDescription: "Ein Laden für Fahrräder in Leipzig",
};

async function submit(fields: Record<string, string>, ip: string) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return submitRequest(new Request("http://localhost/", { method: "POST", body: form }), ip);
}

const storedRow = (id: number) => db().select().from(requests).where(eq(requests.id, id)).get();

/** The landing page's contact form as the page renders it (no JS). */
function Landing() {
  return createElement(ContactForm, {
    constraint: getZodConstraint(RequestFormSchema),
    limits: uploadLimits(DEFAULT_CONFIGURATION.uploadSettings),
    affiliateCode: null,
    submitted: null,
    bookingEnabled: true,
    privacyNote: { text: "Hinweis", url: "https://example.com/datenschutz" },
    brandTexts: { promise: "Versprechen", successMessage: "Danke" },
  });
}

describe("a visitor field added by the README's recipe", () => {
  it("is an input of the contact form, with its label and limit", () => {
    const Stub = createRoutesStub([{ path: "/", Component: Landing }]);
    const html = renderToStaticMarkup(createElement(Stub, { initialEntries: ["/"] }));
    expect(html).toMatch(/<label for="contact-form-companyWebsite"[^>]*>Website des Unternehmens/);
    const input = html.match(/<input id="contact-form-companyWebsite"[^>]*>/)?.[0] ?? "";
    expect(input).toContain('name="companyWebsite"');
    expect(input).toContain('type="url"');
    expect(input).toContain('maxLength="100"');
    expect(input).not.toContain("required");
  });

  it("is checked by the one schema: too long is refused in German at the field", async () => {
    const result = await submit({ ...visitor, companyWebsite: "x".repeat(101) }, "203.0.113.1");
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(400);
    expect(result.fieldErrors?.companyWebsite).toEqual(["Höchstens 100 Zeichen"]);
    expect(db().select({ n: sql<number>`count(*)` }).from(requests).get()?.n).toBe(0);
  });

  it("is stored by the submission and found in the JSON, the list row and the CSV", async () => {
    const result = await submit(
      { ...visitor, companyWebsite: " https://rad.example " },
      "203.0.113.2",
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const id = result.request.id;
    expect((storedRow(id) as unknown as { companyWebsite: string }).companyWebsite).toBe(
      "https://rad.example",
    );

    const [json] = serializeRequests([storedRow(id) as typeof requests.$inferSelect], extended);
    expect(json?.companyWebsite).toBe("https://rad.example");
    expect(json?.name).toBe("Wanda Web");

    const [item] = loadRequestListItems([id], extended);
    expect(item?.companyWebsite).toBe("https://rad.example");

    const query = parseRequestListQuery(new URLSearchParams(""));
    const csv = await new Response(requestsCsv(query, adminId, extended)).text();
    const [header, line] = csv.replace(/^\uFEFF/, "").split("\r\n");
    expect(header?.split(";").at(-1)).toBe("Website");
    expect(line?.split(";").at(-1)).toBe("https://rad.example");
  });

  it("is left empty when the visitor leaves it out, and erased with the request", async () => {
    const result = await submit(visitor, "203.0.113.3");
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(
      (storedRow(result.request.id) as unknown as { companyWebsite: string }).companyWebsite,
    ).toBe("");

    const typed = await submit(
      { ...visitor, companyWebsite: "https://weg.example" },
      "203.0.113.4",
    );
    if (!typed.ok) throw new Error("not stored");
    expect((await eraseRequest(typed.request.id, "anonymize")).ok).toBe(true);
    const erased = storedRow(typed.request.id) as unknown as {
      companyWebsite: string;
      email: string;
    };
    expect(erased.companyWebsite).toBe("");
    expect(erased.email).toBe("");
  });
});
