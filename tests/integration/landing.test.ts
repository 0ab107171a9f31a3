import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_CONFIGURATION } from "~/lib/configuration";
import { createSession } from "~/server/accounts/auth.server";
import { saveConfiguration } from "~/server/configuration/configuration.server";
import { db } from "~/server/platform/db.server";
import { admins, affiliateCodes, attachments, requests } from "~db/schema";
import {
  exeBytes,
  MB,
  multipart,
  pdfBytes,
  pngBytes,
  validFields,
  webmBytes,
} from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
beforeAll(async () => {
  // With analytics configured: only then does the landing page show a cookie bar (ADR 343).
  server = await startTestServer({
    SUBMISSION_RATE_LIMIT: "1000/1h",
    GA_MEASUREMENT_ID: "G-TEST123",
  });
});
afterAll(async () => {
  await server.close();
});

const post = (form: FormData, headers: Record<string, string> = {}) =>
  server.fetch("/api/requests", { method: "POST", body: form, headers });

/** Stored file parts on disk (not counting metadata files). */
function storedFileCount() {
  const dir = path.join(process.env.UPLOADS_DIR as string, "files");
  let count = 0;
  try {
    for (const sub of readdirSync(dir)) {
      count += readdirSync(path.join(dir, sub)).filter((f) => f.endsWith(".dat")).length;
    }
  } catch {
    return 0;
  }
  return count;
}
function incomingCount() {
  try {
    return readdirSync(path.join(process.env.UPLOADS_DIR as string, "incoming")).length;
  } catch {
    return 0;
  }
}

describe("POST /api/requests", () => {
  it("creates a request with attachments and audio (201, spec shape, history cookie)", async () => {
    const res = await post(
      multipart(validFields({ phone: "  +49   221  123456 " }), [
        { name: "plan.pdf", bytes: pdfBytes() },
        { name: "skizze.png", bytes: pngBytes() },
        { field: "audio", name: "aufnahme.webm", bytes: webmBytes(), type: "audio/webm" },
      ]),
    );
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({
      name: "Anna Beispiel",
      phone: "+49 221 123456",
      status: "New",
      archived: false,
      summary: null,
      preparationData: {},
      assigned_to: [],
      affiliateCode: null,
    });
    expect(body.attachments.map((a: { originalName: string }) => a.originalName)).toEqual([
      "plan.pdf",
      "skizze.png",
    ]);
    expect(body.attachments[0]).toEqual({
      id: expect.any(Number),
      filename: expect.stringMatching(/^[a-f0-9]{32}\.pdf$/),
      originalName: "plan.pdf",
      size: pdfBytes().length,
      uploadedAt: expect.any(String),
    });
    expect(body.audioPath).toMatch(/^[a-f0-9]{32}\.webm$/);
    const cookie = res.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/visitor_requests=.*HttpOnly/);

    // The audio is served to its sender (with Range), not to anyone else.
    const visitor = cookie.split(";")[0];
    const audio = await server.fetch(`/api/audio/${body.audioPath}`, {
      headers: { cookie: visitor },
    });
    expect(audio.status).toBe(200);
    expect(audio.headers.get("content-type")).toBe("audio/webm");
    expect(Buffer.from(await audio.arrayBuffer()).equals(webmBytes())).toBe(true);
    const ranged = await server.fetch(`/api/audio/${body.audioPath}`, {
      headers: { cookie: visitor, range: "bytes=0-3" },
    });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe(`bytes 0-3/${webmBytes().length}`);
    expect([...new Uint8Array(await ranged.arrayBuffer())]).toEqual([0x1a, 0x45, 0xdf, 0xa3]);
    expect((await server.fetch(`/api/audio/${body.audioPath}`)).status).toBe(404);
    expect((await server.fetch("/api/audio/..%2F..%2Fetc%2Fpasswd")).status).toBe(404);
    expect((await server.fetch("/api/audio/../../package.json")).status).not.toBe(200);

    // The page renders the visitor's history on the server.
    const page = await (await server.fetch("/", { headers: { cookie: visitor } })).text();
    expect(page).toContain("Meine Anfragen");
    expect(page).toContain(`#${String(body.id).padStart(4, "0")}`);
    expect(page).toContain("Dein Browser unterstützt keine Audio-Wiedergabe.");
    // Someone else's page does not.
    const other = await (await server.fetch("/")).text();
    expect(other).not.toContain(`#${String(body.id).padStart(4, "0")}`);
  });

  it("answers validation errors with 400 and German field messages, storing nothing", async () => {
    const before = db().select().from(requests).all().length;
    const res = await post(
      multipart({ name: "", email: "kein-email", phone: "12", companyDescription: "zu kurz" }, [
        { name: "plan.pdf", bytes: pdfBytes() },
      ]),
    );
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.fieldErrors).toEqual({
      name: ["Name ist erforderlich"],
      email: ["Bitte gib eine gültige E-Mail-Adresse ein"],
      phone: ["Ungültiges Format. Mindestens 5 Zeichen (z.B. +49 123 456789, 0123 456789-1234)"],
      companyDescription: ["Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen"],
    });
    expect(typeof body.error).toBe("string");
    expect(db().select().from(requests).all().length).toBe(before);
    expect(incomingCount()).toBe(0);
  });

  it("requires the phone ('Telefonnummer ist erforderlich')", async () => {
    const res = await post(multipart(validFields({ phone: "   " })));
    expect(res.status).toBe(400);
    expect((await res.json()).fieldErrors.phone).toEqual(["Telefonnummer ist erforderlich"]);
  });

  it("refuses a .pdf whose bytes are an executable, and keeps no file of the selection", async () => {
    const filesBefore = storedFileCount();
    const res = await post(
      multipart(validFields(), [
        { name: "ok.png", bytes: pngBytes() },
        { name: "rechnung.pdf", bytes: exeBytes() },
      ]),
    );
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.uploadErrors).toEqual([
      "rechnung.pdf: Dateityp nicht erlaubt. Erlaubte Formate: jpg, jpeg, png, gif, webp, bmp, pdf, doc, docx, xls, xlsx, ppt, pptx, csv",
    ]);
    expect(body.error).toContain("Fehler beim Upload:");
    expect(storedFileCount()).toBe(filesBefore);
    expect(incomingCount()).toBe(0);
  });

  it("refuses extensions outside the allow-list", async () => {
    const res = await post(multipart(validFields(), [{ name: "tool.exe", bytes: exeBytes() }]));
    expect(res.status).toBe(400);
    expect((await res.json()).uploadErrors).toEqual([
      "tool.exe: Dateityp nicht erlaubt. Erlaubte Formate: jpg, jpeg, png, gif, webp, bmp, pdf, doc, docx, xls, xlsx, ppt, pptx, csv",
    ]);
  });

  it("checks csv as text: a text csv passes, binary bytes named .csv do not", async () => {
    const ok = await post(
      multipart(validFields(), [{ name: "daten.csv", bytes: Buffer.from("name;menge\nBrot;3\n") }]),
    );
    expect(ok.status).toBe(201);
    const bad = await post(
      multipart(validFields(), [{ name: "daten.csv", bytes: Buffer.from([0, 1, 2, 3, 0, 5, 6]) }]),
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).uploadErrors[0]).toMatch(/^daten\.csv: Dateityp nicht erlaubt/);
  });

  it("accepts Office files whose content matches (OLE for .doc/.xls, zip for .docx/.xlsx)", async () => {
    const cfb = Buffer.concat([
      Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]),
      Buffer.alloc(1024, 0),
    ]);
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18, 0)]);
    const res = await post(
      multipart(validFields(), [
        { name: "brief.doc", bytes: cfb },
        { name: "tabelle.xls", bytes: cfb },
        { name: "konzept.docx", bytes: zip },
      ]),
    );
    expect(res.status).toBe(201);
    expect((await res.json()).attachments).toHaveLength(3);
  });

  it("refuses an image whose content is another type (.jpg with PNG bytes)", async () => {
    const res = await post(multipart(validFields(), [{ name: "foto.jpg", bytes: pngBytes() }]));
    expect(res.status).toBe(400);
    expect((await res.json()).uploadErrors[0]).toMatch(/^foto\.jpg: Dateityp nicht erlaubt/);
  });

  it("refuses audio that is not audio", async () => {
    const res = await post(
      multipart(validFields(), [{ field: "audio", name: "a.webm", bytes: pdfBytes() }]),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).uploadErrors[0]).toMatch(/^a\.webm: Dateityp nicht erlaubt/);
  });

  it("limits the number of files (default 5)", async () => {
    const files = Array.from({ length: 6 }, (_, i) => ({ name: `${i}.pdf`, bytes: pdfBytes() }));
    const res = await post(multipart(validFields(), files));
    expect(res.status).toBe(413);
    expect((await res.json()).uploadErrors).toEqual(["Zu viele Dateien. Maximum: 5 Dateien"]);
    expect(incomingCount()).toBe(0);
  });

  it("limits the size of one file (default 10 MB), cutting it off while streaming", async () => {
    const filesBefore = storedFileCount();
    const res = await post(
      multipart(validFields(), [
        { name: "klein.pdf", bytes: pdfBytes() },
        { name: "gross.pdf", bytes: pdfBytes(10.5 * MB) },
      ]),
    );
    expect(res.status).toBe(413);
    expect((await res.json()).uploadErrors).toEqual([
      "gross.pdf: Datei zu groß (10,5 MB). Maximum: 10 MB",
    ]);
    expect(storedFileCount()).toBe(filesBefore);
  });

  it("limits the total size, with limits from the configuration", async () => {
    saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      uploadSettings: {
        ...DEFAULT_CONFIGURATION.uploadSettings,
        maxFileSizeMB: 8,
        maxTotalSizeMB: 10,
      },
    });
    try {
      const tooBig = await post(
        multipart(validFields(), [{ name: "a.pdf", bytes: pdfBytes(9 * MB) }]),
      );
      expect((await tooBig.json()).uploadErrors).toEqual([
        "a.pdf: Datei zu groß (9 MB). Maximum: 8 MB",
      ]);
      const res = await post(
        multipart(validFields(), [
          { name: "a.pdf", bytes: pdfBytes(6 * MB) },
          { name: "b.pdf", bytes: pdfBytes(6 * MB) },
        ]),
      );
      expect(res.status).toBe(413);
      expect((await res.json()).uploadErrors).toEqual([
        "Gesamtgröße zu groß (12 MB). Maximum: 10 MB",
      ]);
    } finally {
      saveConfiguration(DEFAULT_CONFIGURATION);
    }
  });

  it("refuses a body beyond any allowed size before reading it (413)", async () => {
    const res = await server
      .fetch("/api/requests", {
        method: "POST",
        headers: {
          "content-type": "multipart/form-data; boundary=x",
          "content-length": String(200 * MB),
        },
        body: "--x--\r\n",
      })
      .catch(() => null);
    // Either a 413 answer or a connection closed by the server; never a stored request.
    if (res) expect(res.status).toBe(413);
  });

  it("ignores the honeypot submissions (400, nothing stored)", async () => {
    const before = db().select().from(requests).all().length;
    const res = await post(multipart(validFields({ website: "http://spam.example" })));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe("Deine Anfrage konnte nicht angenommen werden.");
    expect(db().select().from(requests).all().length).toBe(before);
  });

  it("stores a valid affiliate code (case-insensitive) and ignores invalid ones", async () => {
    db()
      .insert(affiliateCodes)
      .values({ code: "PARTNER10", name: "Partner", email: "p@example.com", discountValue: 10 })
      .run();
    db()
      .insert(affiliateCodes)
      .values({
        code: "ALT5",
        name: "Alt",
        email: "a@example.com",
        discountValue: 5,
        isActive: false,
      })
      .run();
    const ok = await post(multipart(validFields({ affiliateCode: "partner10" })));
    expect((await ok.json()).affiliateCode).toBe("PARTNER10");
    const inactive = await post(multipart(validFields({ affiliateCode: "alt5" })));
    expect(inactive.status).toBe(201);
    expect((await inactive.json()).affiliateCode).toBeNull();

    expect(await (await server.fetch("/api/affiliate-codes/validate/partner10")).json()).toEqual({
      valid: true,
      discountValue: 10,
    });
    expect(await (await server.fetch("/api/affiliate-codes/validate/alt5")).json()).toEqual({
      valid: false,
      discountValue: 0,
    });
    const page = await (await server.fetch("/?code=partner10")).text();
    expect(page).toContain("PARTNER10");
    expect(page).toContain("10% Rabatt aktiv");
    expect(await (await server.fetch("/?code=nope")).text()).not.toContain("Rabatt aktiv");
  });

  it("writes request and attachment rows together", async () => {
    const res = await post(multipart(validFields(), [{ name: "x.png", bytes: pngBytes() }]));
    const { id } = await res.json();
    const rows = db()
      .select()
      .from(attachments)
      .all()
      .filter((a) => a.requestId === id);
    expect(rows).toHaveLength(1);
    expect(rows[0].mimeType).toBe("image/png");
  });
});

describe("no-JS page action", () => {
  it("re-fills typed values with German messages on a validation error", async () => {
    const res = await server.fetch("/?index", {
      method: "POST",
      body: multipart({
        name: "Bernd Tipp",
        email: "bernd@example.com",
        phone: "abc",
        companyDescription: "Kurz",
        description: "Meine Idee",
      }),
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('value="Bernd Tipp"');
    expect(html).toContain('value="bernd@example.com"');
    expect(html).toContain("Ungültiges Format. Mindestens 5 Zeichen");
    expect(html).toContain("Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen");
    expect(html).toContain("Meine Idee");
  });

  it("posts to the page's own path (no ?index) and answers with an error summary at #contact", async () => {
    const page = await (await server.fetch("/")).text();
    expect(page).toMatch(/<form[^>]*action="\/#contact"/);
    const withCode = await (await server.fetch("/?code=nichtda")).text();
    expect(withCode).toMatch(/<form[^>]*action="\/#contact"/);

    const res = await server.fetch("/", {
      method: "POST",
      body: multipart({
        name: "",
        email: "bernd@example.com",
        phone: "0221 987654",
        companyDescription: "Kurz",
      }),
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    const summary = html.match(
      /<div role="alert"[^>]*data-testid="contact-error-summary".*?<\/ul>/s,
    )?.[0];
    expect(summary).toBeDefined();
    expect(summary).toContain("Bitte prüfe deine Angaben");
    expect(summary).toContain('href="#contact-form-name"');
    expect(summary).toContain('href="#contact-form-companyDescription"');
    expect(summary).not.toContain('href="#contact-form-email"');
    // The too-short description's message: in the summary and under the field's counter, linked
    // by aria-describedby. (Counted in the markup; the serialized action data in the page's
    // scripts carries it too.)
    const markup = html.replace(/<script\b[^>]*>.*?<\/script>/gs, "");
    expect(
      markup.split("Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen"),
    ).toHaveLength(3);
    expect(markup).toMatch(
      /id="contact-form-companyDescription-error"[^>]*>(<[^>]+>)*Bitte beschreibe dein Unternehmen mit mindestens 20 Zeichen/,
    );
    expect(markup).toContain(
      'aria-describedby="contact-form-companyDescription-counter contact-form-companyDescription-error"',
    );
    expect(markup).toMatch(/>4(<!-- -->)?\/(<!-- -->)?20(<!-- -->)? Zeichen \(mindestens\)</);
  });

  it("redirects after success with the history cookie (POST/redirect/GET)", async () => {
    const res = await server.fetch("/?index", { method: "POST", body: multipart(validFields()) });
    expect(res.status).toBe(303);
    // Without a proof of work: the thank-you page asks the script-free question (ADR 326).
    expect(res.headers.get("location")).toMatch(/^\/\?gesendet=\d+&pruefung=[\w.-]+#frage$/);
    const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];
    const page = await (
      await server.fetch(res.headers.get("location") as string, { headers: { cookie } })
    ).text();
    expect(page).toContain("ist bei uns eingegangen");
    expect(page).toMatch(/href="\/termin\?anfrage=\d+"/);
  });
});

describe("visitor data", () => {
  it("does not show requests whose secret does not match (no guessing ids)", async () => {
    const res = await post(multipart(validFields({ name: "Geheim Person" })));
    expect(res.status).toBe(201);
    const page = await (await server.fetch("/")).text();
    expect(page).not.toContain("Geheim Person");
  });

  it("gives the public configuration only (no system prompt, no admin e-mails)", async () => {
    saveConfiguration({
      ...DEFAULT_CONFIGURATION,
      systemPrompt: "GEHEIMER-PROMPT",
      emailNotifications: {
        enabled: true,
        adminEmails: [{ id: 1, username: "admin", email: "admin-geheim@example.com" }],
        externalEmails: ["extern-geheim@example.com"],
      },
      infoBanner: { enabled: true, text: "Neu: Termine auch samstags" },
    });
    try {
      const res = await server.fetch("/api/configuration");
      const text = await res.text();
      expect(text).not.toContain("GEHEIMER-PROMPT");
      expect(text).not.toContain("geheim@example.com");
      const body = JSON.parse(text);
      expect(Object.keys(body).sort()).toEqual(
        [
          "appointmentEventType",
          "appointmentEventTypeDetails",
          "bookingLeadTime",
          "bookingWeekdays",
          "bookingClosedDays",
          // ADR 264: the booking horizon (days) names the last bookable day in the dialog.
          "bookingHorizonDays",
          // ADR 268: the brand (name, links, colour, logo URL, landing texts) is public.
          "branding",
          "infoBanner",
          "uploadSettings",
        ].sort(),
      );
      expect(body.infoBanner).toEqual({ enabled: true, text: "Neu: Termine auch samstags" });
      const page = await (await server.fetch("/")).text();
      expect(page).toContain("Neu: Termine auch samstags");
      expect(page).not.toContain("GEHEIMER-PROMPT");
      expect(page).not.toContain("geheim@example.com");
    } finally {
      saveConfiguration(DEFAULT_CONFIGURATION);
    }
  });

  it("answers an admin's ?view=public with what a visitor sees (the demo booking dialog)", async () => {
    const admin = db().select().from(admins).get();
    const token = createSession(admin!.id, { userAgent: "vitest" });
    const whole = await (await server.fetch("/api/configuration", { token })).json();
    expect(whole).not.toHaveProperty("bookingClosedDays");
    const anonymous = await (await server.fetch("/api/configuration")).json();
    const asVisitor = await (
      await server.fetch("/api/configuration?view=public", { token })
    ).json();
    expect(Object.keys(asVisitor).sort()).toEqual(Object.keys(anonymous).sort());
    expect(asVisitor.bookingClosedDays).toEqual(anonymous.bookingClosedDays);
  });

  it("lets an admin play any recording", async () => {
    const res = await post(
      multipart(validFields(), [{ field: "audio", name: "a.webm", bytes: webmBytes() }]),
    );
    const { audioPath } = await res.json();
    const admin = db().select().from(admins).get();
    expect(admin).toBeTruthy();
    const token = createSession(admin!.id, { userAgent: "vitest" });
    const audio = await server.fetch(`/api/audio/${audioPath}`, { token });
    expect(audio.status).toBe(200);
  });
});

describe("preferences without JS", () => {
  it("sets theme, consent and dismissed-banner cookies and redirects back", async () => {
    const theme = await server.fetch("/preferences/theme", {
      method: "POST",
      body: new URLSearchParams({ theme: "dark", redirectTo: "/?code=x" }),
    });
    expect(theme.status).toBe(303);
    expect(theme.headers.get("location")).toBe("/?code=x");
    const themeCookie = (theme.headers.get("set-cookie") ?? "").split(";")[0];
    expect(await (await server.fetch("/", { headers: { cookie: themeCookie } })).text()).toContain(
      '<html lang="de" class="dark"',
    );

    const consent = await server.fetch("/preferences/consent", {
      method: "POST",
      body: new URLSearchParams({ choice: "necessary", redirectTo: "//evil.example" }),
    });
    expect(consent.headers.get("location")).toBe("/");
    const consentCookie = (consent.headers.get("set-cookie") ?? "").split(";")[0];
    const withConsent = await (
      await server.fetch("/", { headers: { cookie: consentCookie } })
    ).text();
    expect(withConsent).not.toContain("Alle akzeptieren");
    expect(await (await server.fetch("/")).text()).toContain("Alle akzeptieren");
  });
});
