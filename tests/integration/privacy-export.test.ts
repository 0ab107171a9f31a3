import { eq } from "drizzle-orm";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { multipart, pdfBytes, validFields, webmBytes } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
beforeAll(async () => {
  server = await startTestServer();
  token = await server.adminToken();
});
afterAll(() => server.close());

async function submit(fields: Record<string, string>, files: Parameters<typeof multipart>[1] = []) {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    // A solved proof of work: the normal flow (a quarantined request is not in the default CSV).
    body: multipart(validFields({ ...fields, altcha: await solvedAltcha(server.url) }), files),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: number };
}

describe("person export (ZIP)", () => {
  it("covers the chosen request; the same e-mail's others only when the admin adds them (ADR 262)", async () => {
    const pdf = pdfBytes(3000);
    const a = await submit({ email: "Person.Export@example.com", name: "Paula Export" }, [
      { name: "plan.pdf", bytes: pdf },
    ]);
    const b = await submit({ email: "person.export@example.com", name: "Paula Export" }, [
      { field: "audio", name: "a.webm", bytes: webmBytes(), type: "audio/webm" },
    ]);
    const other = await submit({
      email: "someone.else@example.com",
      name: "Otto Anders",
      phone: "+49 89 7654321",
    });

    expect((await server.fetch(`/api/admin/requests/${a.id}/export`)).status).toBe(401);
    expect((await server.fetch("/api/admin/requests/999999/export", { token })).status).toBe(404);

    // Alone: only the chosen request (a shared address is no proof of the same person).
    const alone = await server.fetch(`/api/admin/requests/${b.id}/export`, { token });
    const aloneZip = unzipSync(new Uint8Array(await alone.arrayBuffer()));
    const aloneData = JSON.parse(new TextDecoder().decode(aloneZip["daten.json"]));
    expect(aloneData.anfragen.map((r: { id: number }) => r.id)).toEqual([b.id]);
    expect(Object.keys(aloneZip).some((p) => p.endsWith("plan.pdf"))).toBe(false);

    // Added one by one (`mit`); an id of another person is ignored.
    const res = await server.fetch(
      `/api/admin/requests/${b.id}/export?mit=${a.id}&mit=${other.id}`,
      { token },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/zip");
    expect(res.headers.get("content-disposition")).toMatch(/attachment; filename="daten-anfrage-/);
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(new TextDecoder().decode(zip["daten.json"]));
    expect(data.anfragen.map((r: { id: number }) => r.id)).toEqual([a.id, b.id]);
    expect(JSON.stringify(data)).not.toContain("Otto Anders");
    expect(data.anfragen.map((r: { id: number }) => r.id)).not.toContain(other.id);
    const paths = Object.keys(zip).sort();
    expect(paths).toEqual(
      [
        "daten.json",
        `dateien/anfrage-${String(a.id).padStart(4, "0")}/plan.pdf`,
        `dateien/anfrage-${String(b.id).padStart(4, "0")}/sprachnachricht.webm`,
      ].sort(),
    );
    expect(Buffer.from(zip[paths.find((p) => p.endsWith("plan.pdf")) as string]).equals(pdf)).toBe(
      true,
    );
    expect(data.dateien).toHaveLength(2);
  });

  it("the request page offers the same e-mail's or phone's requests one by one, with a reminder (no JS)", async () => {
    const first = await submit({ email: "kandidat@example.com", name: "Karla Kandidat" });
    const byPhone = await submit({
      email: "anders@example.com",
      name: "Karla K.",
      phone: "+49 170 5550001",
    });
    const anchor = await submit({
      email: "KANDIDAT@example.com",
      name: "Karla",
      phone: "+49 170 5550001",
    });
    const cookie = await server.adminCookie();
    const html = await (
      await server.fetch(`/admin/requests?requestId=${anchor.id}`, { headers: { cookie } })
    ).text();
    expect(html).toContain(`action="/api/admin/requests/${anchor.id}/export"`);
    expect(html).toContain(`name="mit" value="${first.id}"`);
    expect(html).toContain(`name="mit" value="${byPhone.id}"`);
    expect(html).toContain("Prüfen Sie zuerst die Identität der");
    expect(html).toContain("(gleiche E-Mail-Adresse)");
    expect(html).toContain("(gleiche Telefonnummer)");
  });
});

describe("CSV export of the list", () => {
  it("is German-Excel CSV with the page's filters and neutralised formulas", async () => {
    const evil = await submit({
      name: '=HYPERLINK("http://evil.example")',
      phone: "+49 30 1234567",
      description: '-Liste; mit "Zitat"\nzweite Zeile',
      companyDescription: "@SUMME ist kein Unternehmen, aber lang genug.",
    });
    // Forms send CRLF; an AI summary (or an API client's text) may hold a lone "\n".
    const twoLines = await submit({ name: "Zwei Zeilen" });
    db()
      .update(requests)
      .set({ summary: "Eine Zusammenfassung\nauf zwei Zeilen ohne Sonderzeichen" })
      .where(eq(requests.id, twoLines.id))
      .run();
    const archived = await submit({ name: "Archiv Anna" });
    db().update(requests).set({ archived: true }).where(eq(requests.id, archived.id)).run();

    expect((await server.fetch("/api/admin/requests/export.csv")).status).toBe(401);
    const res = await server.fetch("/api/admin/requests/export.csv", { token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    const [header] = text.split("\r\n");
    expect(header).toBe(
      "Nr.;Eingegangen;Name;E-Mail;Telefon;Unternehmen;Projektbeschreibung;Zusammenfassung;Status;Archiviert;Affiliate-Code;Quelle;Zugewiesen;Anhänge;Zuletzt geändert;Phase;Grund;Versprechen;Testversion",
    );
    // The pipeline's columns (ADRs 345, 346): the stage's name and both promises' due times.
    expect(text).toMatch(
      /;Neu;;Erstkontakt fällig \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} · Testversion fällig /,
    );
    expect(text).toContain(`#${String(evil.id).padStart(4, "0")};`);
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(text).toContain(";+49 30 1234567;");
    expect(text).toContain(";'@SUMME ist kein Unternehmen");
    expect(text).toMatch(/;"'-Liste; mit ""Zitat""\r?\nzweite Zeile";/);
    expect(text).toMatch(/;\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2};|;\d{2}\.\d{2}\.\d{4} \d{2}:\d{2};/);
    // A line break alone (no ";" or '"') is quoted too, so Excel keeps the row in one piece.
    expect(text).toContain(`#${String(twoLines.id).padStart(4, "0")};`);
    expect(text).toContain(';"Eine Zusammenfassung\nauf zwei Zeilen ohne Sonderzeichen";');
    expect(text).not.toContain("Archiv Anna");

    const onlyArchived = await (
      await server.fetch("/api/admin/requests/export.csv?tab=archived", { token })
    ).text();
    expect(onlyArchived).toContain("Archiv Anna");
    expect(onlyArchived).not.toContain("HYPERLINK");
    const searched = await (
      await server.fetch("/api/admin/requests/export.csv?q=HYPERLINK", { token })
    ).text();
    expect(searched.match(/^#\d{4};/gm)).toEqual([`#${String(evil.id).padStart(4, "0")};`]);
  });
});
