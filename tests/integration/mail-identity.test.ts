// Absender und Pflichtangaben (ADR 325) over HTTP: the legal form decides the required fields and
// the go-live item `mailIdentity` names what is missing; bad input (a line break where one line
// belongs, markup, an over-long field, a malformed register number) is refused at the field with a
// German message and changes nothing — by `PATCH /api/configuration` and by the settings form
// without JavaScript; the identity is never public.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IDENTITY_FIELDS, IDENTITY_MESSAGES } from "~/lib/mail-identity";
import type { SetupCheckItem } from "~/lib/setup-check";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;

beforeAll(async () => {
  server = await startTestServer();
  token = await server.adminToken();
});
afterAll(() => server.close());

const ADDRESS = {
  companyName: "Kleinbyte Software GmbH",
  street: "Musterstraße 1",
  postalCode: "80331",
  city: "München",
};
const REGISTER = {
  seat: "München",
  registerCourt: "Amtsgericht München",
  registerNumber: "HRB 123456",
};

const patch = (mailIdentity: Record<string, unknown>) =>
  server.fetch("/api/configuration", { method: "PATCH", token, json: { mailIdentity } });

/** Replaces the whole identity (every field not given is emptied). */
const replace = (mailIdentity: Record<string, unknown>) =>
  server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: {
      mailIdentity: {
        ...Object.fromEntries(IDENTITY_FIELDS.map((k) => [k, null])),
        ...mailIdentity,
      },
    },
  });

async function item(): Promise<SetupCheckItem> {
  const res = await server.fetch("/api/admin/setup-check", { token });
  const body = (await res.json()) as { items: SetupCheckItem[] };
  return body.items.find((i) => i.id === "mailIdentity") as SetupCheckItem;
}

const stored = async () =>
  (
    (await (await server.fetch("/api/configuration", { token })).json()) as {
      mailIdentity: Record<string, unknown>;
    }
  ).mailIdentity;

describe("the legal form decides the required fields (go-live item)", () => {
  it("red until a form and its Pflichtangaben are entered; linked to the card", async () => {
    const empty = await item();
    expect(empty).toMatchObject({
      ok: false,
      optional: false,
      href: "/admin/settings#mailIdentity",
    });
    expect(empty.message).toContain("Es fehlt: Rechtsform, Firma (wie im Register eingetragen)");
    // The brand's name is not the Firma: the item stays red with a brand set.
    await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { branding: { name: "Kleinbyte" } },
    });
    expect((await item()).message).toContain("Firma (wie im Register eingetragen)");
  });

  it("GmbH and UG: register data and every Geschäftsführer (§35a GmbHG)", async () => {
    for (const legalForm of ["gmbh", "ug"]) {
      expect((await replace({ ...ADDRESS, ...REGISTER, legalForm })).status).toBe(200);
      const missing = await item();
      expect(missing.ok).toBe(false);
      expect(missing.message).toMatch(/Es fehlt: Geschäftsführer \(alle\)\.$/);
      expect((await patch({ managingDirectors: "Erika Muster" })).status).toBe(200);
      const done = await item();
      expect(done.ok).toBe(true);
      expect(done.message).toContain(legalForm === "ug" ? "UG (haftungsbeschränkt)" : "(GmbH)");
    }
  });

  it("AG: the Vorstand and the Aufsichtsrat's chair (§80 AktG)", async () => {
    await replace({ ...ADDRESS, ...REGISTER, legalForm: "ag", managingDirectors: "Erika Muster" });
    expect((await item()).message).toMatch(
      /Es fehlt: Vorstand \(alle Mitglieder\), Vorsitz des Aufsichtsrats\.$/,
    );
    await patch({ boardMembers: "Erika Muster, Max Beispiel", supervisoryBoardChair: "Carla Rat" });
    expect((await item()).ok).toBe(true);
  });

  it("e.K.: Ort der Handelsniederlassung, register and the suffix in the Firma (§37a HGB)", async () => {
    await replace({ ...ADDRESS, companyName: "Kleinbyte Software", legalForm: "ek" });
    expect((await item()).message).toMatch(
      /Es fehlt: Ort der Handelsniederlassung, Registergericht, Registernummer, Zusatz „e\.K\.“ in der Firma\.$/,
    );
    await patch({ ...REGISTER, companyName: "Kleinbyte Software e.K." });
    expect((await item()).ok).toBe(true);
  });

  it("GmbH & Co. KG: the Komplementärin's §35a data (§125 HGB); OHG, KG, PartG, eGbR: register", async () => {
    await replace({ ...ADDRESS, ...REGISTER, legalForm: "gmbh-co-kg" });
    expect((await item()).message).toContain(
      "Persönlich haftende Gesellschafterin (Firma), Sitz der persönlich haftenden Gesellschafterin",
    );
    await patch({
      generalPartner: "Kleinbyte Verwaltungs GmbH",
      generalPartnerSeat: "München",
      generalPartnerRegisterCourt: "Amtsgericht München",
      generalPartnerRegisterNumber: "HRB 555",
      generalPartnerDirectors: "Erika Muster",
    });
    expect((await item()).ok).toBe(true);
    for (const legalForm of ["ohg", "kg", "partg", "egbr"]) {
      await replace({ ...ADDRESS, legalForm });
      expect((await item()).message).toMatch(
        /Es fehlt: Sitz der Gesellschaft, Registergericht, Registernummer\.$/,
      );
    }
  });

  it("GbR, Einzelunternehmen, Freiberufler: name and address suffice", async () => {
    for (const legalForm of ["gbr", "einzelunternehmen", "freiberufler"]) {
      await replace({ ...ADDRESS, legalForm });
      expect((await item()).ok, legalForm).toBe(true);
    }
    await replace({ legalForm: "freiberufler", companyName: "Erika Muster" });
    expect((await item()).message).toMatch(/Es fehlt: Straße und Hausnummer, PLZ, Ort\.$/);
  });
});

describe("bad input is refused at the field and changes nothing", () => {
  it("by the API: line breaks, markup, over-long fields, malformed numbers; 400 with the field", async () => {
    await replace({
      ...ADDRESS,
      ...REGISTER,
      legalForm: "gmbh",
      managingDirectors: "Erika Muster",
    });
    const before = await stored();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ registerNumber: "HRB\n123456" }, "registerNumber", IDENTITY_MESSAGES.oneLine],
      [
        { companyName: "Kleinbyte\r\nBcc: x@example.com" },
        "companyName",
        IDENTITY_MESSAGES.oneLine,
      ],
      [{ managingDirectors: "<b>Erika</b>" }, "managingDirectors", IDENTITY_MESSAGES.noMarkup],
      [{ signOffVisitor: "<a href=x>Hallo</a>" }, "signOffVisitor", IDENTITY_MESSAGES.noMarkup],
      [{ city: "M".repeat(81) }, "city", "Höchstens 80 Zeichen."],
      [{ registerNumber: "HRB 123; DROP" }, "registerNumber", IDENTITY_MESSAGES.registerNumber],
      [{ vatId: "123" }, "vatId", IDENTITY_MESSAGES.vatId],
      [{ legalForm: "Ltd" }, "legalForm", IDENTITY_MESSAGES.legalForm],
    ];
    for (const [input, field, message] of cases) {
      const res = await patch(input);
      expect(res.status, field).toBe(400);
      const body = (await res.json()) as { fieldErrors: Record<string, string[]> };
      expect(body.fieldErrors[`mailIdentity.${field}`], field).toEqual([message]);
    }
    expect(await stored()).toEqual(before);
  });

  it("by the settings form without JavaScript: the message at the field, focused; nothing saved", async () => {
    const cookie = await server.adminCookie();
    const page = await (await server.fetch("/admin/settings", { headers: { cookie } })).text();
    expect(page).toContain('id="mailIdentity"');
    expect(page).toContain("Absender und Pflichtangaben");
    // Without JS every field shows which legal forms need it.
    expect(page).toContain("Pflicht bei: GmbH, UG (haftungsbeschränkt)");
    const before = await stored();
    // The form as the page posts it, with a line break in the register number.
    const form = new URLSearchParams();
    for (const [name, value] of formFields(page)) form.append(name, value);
    form.set("intent", "save");
    form.set("mailIdentity.registerNumber", "HRB\n999");
    const res = await server.fetch("/admin/settings", {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toMatch(
      new RegExp(
        `id="mailIdentity-registerNumber-error"[^>]*>(<[^>]+>)*${IDENTITY_MESSAGES.oneLine}`,
      ),
    );
    expect(html).toMatch(/<input[^>]*id="mailIdentity-registerNumber"[^>]*autofocus/i);
    expect(html).toMatch(/<input[^>]*id="mailIdentity-registerNumber"[^>]*aria-invalid="true"/);
    expect(await stored()).toEqual(before);

    // Corrected: saved.
    form.set("mailIdentity.registerNumber", "HRB 999");
    form.set("mailIdentity.vatId", "DE999999999");
    const saved = await server.fetch("/admin/settings", {
      method: "POST",
      headers: { cookie, origin: server.url, "content-type": "application/x-www-form-urlencoded" },
      body: form.toString(),
    });
    expect(saved.status).toBe(302);
    expect(await stored()).toMatchObject({ registerNumber: "HRB 999", vatId: "DE999999999" });
  });

  it("is never public", async () => {
    const visitor = await (await server.fetch("/api/configuration")).json();
    expect(visitor).not.toHaveProperty("mailIdentity");
    expect(JSON.stringify(visitor)).not.toContain("Amtsgericht");
  });
});

/** The named inputs, selects and textareas of the settings form as the browser would post them. */
function formFields(html: string): [string, string][] {
  const start = html.indexOf('id="settings"');
  const form = html.slice(start, html.indexOf("</form>", start));
  const decode = (s: string) =>
    s
      .replaceAll("&quot;", '"')
      .replaceAll("&#x27;", "'")
      .replaceAll("&#39;", "'")
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
  const out: [string, string][] = [];
  for (const m of form.matchAll(/<input\b[^>]*>/g)) {
    const tag = m[0];
    const name = /\bname="([^"]*)"/.exec(tag)?.[1];
    if (!name) continue;
    const type = /\btype="([^"]*)"/.exec(tag)?.[1] ?? "text";
    if (type === "submit" || type === "button" || type === "file") continue;
    if ((type === "checkbox" || type === "radio") && !/\bchecked\b/.test(tag)) continue;
    const value = /\bvalue="([^"]*)"/.exec(tag)?.[1] ?? (type === "checkbox" ? "on" : "");
    out.push([decode(name), decode(value)]);
  }
  for (const m of form.matchAll(/<textarea\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g))
    out.push([decode(m[1] as string), decode(m[2] as string)]);
  for (const m of form.matchAll(/<select\b[^>]*\bname="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const selected = /<option[^>]*value="([^"]*)"[^>]*selected/.exec(m[2] as string)?.[1] ?? "";
    out.push([decode(m[1] as string), decode(selected)]);
  }
  return out;
}
