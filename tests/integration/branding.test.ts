import { eq } from "drizzle-orm";
import ICAL from "ical.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { firstBookableDay } from "~/lib/booking-calendar";
import { COLOR_CONTRAST } from "~/lib/brand-color";
import { brandingDefaults } from "~/lib/branding";
import type { RequestJson } from "~/lib/request-json";
import { LOGO_READ_ONLY } from "~/server/branding/config.server";
import { db } from "~/server/platform/db.server";
import { fileStorage } from "~/server/storage/storage.server";
import { attachments, configuration, requests } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { startSmtpInbox } from "../smtp-inbox";
import { multipart, pngBytes, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let server: TestServer;
let token: string;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  // MAIL_FROM without a name of its own: the brand's name is the sender's.
  server = await startTestServer({ SMTP_URL: inbox.url, MAIL_FROM: "team@example.com" });
  token = await server.adminToken();
});
afterAll(async () => {
  await server.close();
  await inbox.close();
});

const patch = (branding: Record<string, unknown>) =>
  server.fetch("/api/configuration", { method: "PATCH", token, json: { branding } });
const landing = async () => (await server.fetch("/")).text();

function logoForm(bytes: Buffer, name = "logo.png", type = "image/png") {
  const form = new FormData();
  form.append("logo", new File([new Uint8Array(bytes)], name, { type }));
  return form;
}
const putLogo = (form: FormData) =>
  server.fetch("/api/admin/branding/logo", { method: "PUT", token, body: form });

describe("branding: defaults", () => {
  it("an untouched installation shows today's texts; the public configuration names them", async () => {
    const html = await landing();
    expect(html).toContain("<title>Deine Software-Idee als Testversion in 3 Tagen</title>");
    expect(html).toContain(brandingDefaults.heroTitle);
    expect(html).toContain("Was bekomme ich nach drei Tagen?");
    expect(html).toContain(`Anfrage-Portal</p>`);
    expect(html).not.toContain("--color-indigo-600");
    const pub = await (await server.fetch("/api/configuration")).json();
    expect(pub.branding).toMatchObject({
      name: "Anfrage-Portal",
      heroTitle: brandingDefaults.heroTitle,
      promise: brandingDefaults.promise,
      primaryColor: null,
      logoUrl: null,
      privacyUrl: "https://example.com/datenschutz",
    });
    expect(pub.branding.faq).toHaveLength(10);
  });
});

describe("branding through the API", () => {
  it("every field is stored, shown on the next request and escaped; null means the default", async () => {
    const res = await patch({
      name: "Agentur <Süd>",
      heroTitle: "Deine App in 5 Tagen <script>alert(1)</script>",
      heroSubtitle: "Wir bauen sie.",
      promise: "Antwort in 24 Stunden.",
      successMessage: "Danke – wir melden uns!",
      footerLine: "© {jahr} Agentur Süd GmbH",
      faq: [{ question: "Wie schnell?", answer: "Sehr schnell & gründlich." }],
      primaryColor: "#0B5D1E",
      privacyUrl: "https://agentur.example.de/datenschutz",
      imprintUrl: "https://agentur.example.de/impressum",
    });
    expect(res.status).toBe(200);
    const html = await landing();
    expect(html).toContain(
      "<title>Deine App in 5 Tagen &lt;script&gt;alert(1)&lt;/script&gt; – Agentur &lt;Süd&gt;</title>",
    );
    expect(html).not.toContain("<script>alert(1)</script>");
    expect(html).toContain("Wir bauen sie.");
    expect(html).toContain("Antwort in 24 Stunden.");
    expect(html).toMatch(/© \d{4} Agentur Süd GmbH/);
    expect(html).toContain("Wie schnell?");
    expect(html).toContain("Sehr schnell &amp; gründlich.");
    expect(html).not.toContain("Was bekomme ich nach drei Tagen?");
    expect(html).toContain("--color-indigo-600:#0b5d1e");
    expect(html).toContain('href="https://agentur.example.de/impressum"');
    expect(html).toContain("Agentur &lt;Süd&gt;");

    const back = await patch({ heroTitle: null, faq: null, name: null });
    expect(back.status).toBe(200);
    const again = await landing();
    expect(again).toContain(brandingDefaults.heroTitle);
    expect(again).toContain("Was bekomme ich nach drei Tagen?");
    expect(again).toContain("Antwort in 24 Stunden.");
  });

  it("refuses a colour white text is unreadable on, and a malformed one, in German", async () => {
    for (const color of ["#ffffff", "#ffd700"]) {
      const res = await patch({ primaryColor: color });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(COLOR_CONTRAST);
    }
    const bad = await patch({ primaryColor: "red;}" });
    expect(bad.status).toBe(400);
    const bad2 = await patch({ privacyUrl: "javascript:alert(1)" });
    expect(bad2.status).toBe(400);
  });

  it("the go-live check's legal item is fixed by the settings", async () => {
    await patch({
      privacyUrl: "https://agentur.example.de/datenschutz",
      imprintUrl: "https://agentur.example.de/impressum",
    });
    const check = await (await server.fetch("/api/admin/setup-check", { token })).json();
    const item = (check.items as { id: string; ok: boolean }[]).find((i) => i.id === "legalUrls");
    expect(item?.ok).toBe(true);
  });
});

describe("logo", () => {
  it("refuses SVG, other types and files over 256 KB", async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const refused = await putLogo(logoForm(svg, "logo.svg", "image/svg+xml"));
    expect(refused.status).toBe(415);
    expect((await refused.json()).error).toContain("PNG, JPEG oder WebP");
    const big = Buffer.concat([pngBytes(), Buffer.alloc(300 * 1024)]);
    const tooBig = await putLogo(logoForm(big));
    expect(tooBig.status).toBe(413);
    expect((await tooBig.json()).error).toContain("256 KB");
    expect(
      (
        await server.fetch("/api/admin/branding/logo", {
          method: "PUT",
          body: logoForm(pngBytes()),
        })
      ).status,
    ).toBe(401);
  });

  it("a polyglot logo is served as an image with nosniff; DELETE removes it", async () => {
    const polyglot = Buffer.concat([
      pngBytes(),
      Buffer.from("<html><script>alert(1)</script></html>"),
    ]);
    const res = await putLogo(logoForm(polyglot, "logo.html", "text/html"));
    expect(res.status).toBe(200);
    const { logoUrl } = await res.json();
    expect(logoUrl).toMatch(/^\/branding\/logo\?v=[0-9a-f]{32}$/);
    const served = await server.fetch(logoUrl);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/png");
    expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    expect(Buffer.from(await served.arrayBuffer()).equals(polyglot)).toBe(true);
    expect(await landing()).toContain(`src="${logoUrl}"`);

    const gone = await server.fetch("/api/admin/branding/logo", { method: "DELETE", token });
    expect(gone.status).toBe(204);
    expect((await server.fetch(logoUrl)).status).toBe(404);
  });
});

describe("logo from the settings page (without JS)", () => {
  it("uploads and removes through the page's own forms; SVG is refused there too", async () => {
    const cookie = await server.adminCookie();
    const postPage = (form: FormData) =>
      server.fetch("/admin/settings", {
        method: "POST",
        headers: { cookie, origin: server.url },
        body: form,
      });
    const logo = async () =>
      (await (await server.fetch("/api/configuration", { token })).json()).branding.logo;
    const svg = logoForm(
      Buffer.from("<svg xmlns='http://www.w3.org/2000/svg'/>"),
      "l.svg",
      "image/svg+xml",
    );
    svg.set("intent", "logo-upload");
    const refused = await postPage(svg);
    expect(refused.status).toBe(302);
    expect(await logo()).toBeNull();
    const png = logoForm(pngBytes());
    png.set("intent", "logo-upload");
    const saved = await postPage(png);
    expect(saved.status).toBe(302);
    expect((await logo())?.type).toBe("png");
    const settings = await (await server.fetch("/admin/settings", { headers: { cookie } })).text();
    expect(settings).toContain('alt="Aktuelles Logo"');
    const remove = new FormData();
    remove.set("intent", "logo-remove");
    expect((await postPage(remove)).status).toBe(302);
    expect(await logo()).toBeNull();
  });
});

describe("logo reference (ADR 293)", () => {
  const storedLogo = async () =>
    (await (await server.fetch("/api/configuration", { token })).json()).branding.logo;
  /** Names a logo as a configuration saved before ADR 293 could (`<hash>.<type>`, no prefix). */
  function setLegacyLogo(hash: string) {
    const row = db().select().from(configuration).where(eq(configuration.id, 1)).get();
    const data = row?.data as { branding?: Record<string, unknown> };
    const next = { ...data, branding: { ...data.branding, logo: { hash, type: "png" } } };
    db().update(configuration).set({ data: next }).where(eq(configuration.id, 1)).run();
  }
  const stored = async (key: string) => (await fileStorage().get(key)) !== null;
  const png = (text: string) =>
    new File([new Uint8Array(Buffer.concat([pngBytes(), Buffer.from(text)]))], "x.png", {
      type: "image/png",
    });

  it("only the logo upload sets it: PUT/PATCH keep the stored one, a different one is refused", async () => {
    const { logoUrl } = await (await putLogo(logoForm(pngBytes()))).json();
    const logo = await storedLogo();
    expect(logo).toMatchObject({ hash: logoUrl.split("=")[1], type: "png", prefixed: true });
    expect(await stored(`logo-${logo.hash}.png`)).toBe(true);

    const whole = await (await server.fetch("/api/configuration", { token })).json();
    const put = await server.fetch("/api/configuration", { method: "PUT", token, json: whole });
    expect(put.status).toBe(200);
    const { branding: _left, ...withoutBranding } = whole;
    const replaced = await server.fetch("/api/configuration", {
      method: "PUT",
      token,
      json: withoutBranding,
    });
    expect(replaced.status).toBe(200);
    expect(await storedLogo()).toEqual(logo);
    const removed = await patch({ logo: null });
    expect(removed.status).toBe(400);
    expect((await removed.json()).fieldErrors["branding.logo"]).toEqual([LOGO_READ_ONLY]);
    const other = await patch({ logo: { hash: "0".repeat(32), type: "png" } });
    expect(other.status).toBe(400);
    expect((await patch({ heroTitle: "Neu" })).status).toBe(200);
    expect(await storedLogo()).toEqual(logo);
    await patch({ heroTitle: null });
    await server.fetch("/api/admin/branding/logo", { method: "DELETE", token });
    expect(await stored(`logo-${logo.hash}.png`)).toBe(false);
  });

  it("an older logo is served and dropped on replacement, unless a request's upload has its name", async () => {
    const legacy = "a".repeat(32);
    await fileStorage().set(`${legacy}.png`, png("old logo"));
    setLegacyLogo(legacy);
    const served = await server.fetch(`/branding/logo?v=${legacy}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).toString()).toContain("old logo");
    expect((await putLogo(logoForm(pngBytes()))).status).toBe(200);
    expect(await stored(`${legacy}.png`)).toBe(false);

    // A configuration poisoned before the fix names a visitor's attachment: never published,
    // never deleted.
    const upload = "b".repeat(32);
    await fileStorage().set(`${upload}.png`, png("PRIVATE"));
    const r = db()
      .insert(requests)
      .values({
        name: "Lia Logo",
        email: "lia-logo@example.com",
        phone: "+49 30 123456",
        companyDescription: "Eine Firma mit vielen Ideen und Mitarbeitenden",
        description: "App",
      })
      .returning()
      .get();
    db()
      .insert(attachments)
      .values({
        requestId: r.id,
        filename: `${upload}.png`,
        originalName: "scan.png",
        mimeType: "image/png",
        size: 10,
      })
      .run();
    setLegacyLogo(upload);
    expect((await server.fetch(`/branding/logo?v=${upload}`)).status).toBe(404);
    expect(
      (await server.fetch("/api/admin/branding/logo", { method: "DELETE", token })).status,
    ).toBe(204);
    expect(await stored(`${upload}.png`)).toBe(true);
    expect(await storedLogo()).toBeNull();
  });

  // The logo's storage key `<hash>.<type>` has the shape of an attachment's key (randomBytes(16)
  // hex + ext): a `branding.logo` pointing at a visitor's attachment would publish that private
  // file at /branding/logo (no login, no audit), and the next logo upload would delete it.
  it("PATCH /api/configuration refuses a logo reference to a visitor's attachment; it stays private", async () => {
    const email = `logo.${Date.now()}@example.com`;
    const secret = Buffer.concat([pngBytes(), Buffer.from("PRIVATE-VISITOR-SCAN")]);
    const sent = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart({ ...validFields({ email }), altcha: await solvedAltcha(server.url) }, [
        { name: "ausweis.png", bytes: secret, type: "image/png" },
      ]),
    });
    expect(sent.status).toBe(201);
    const list = (await (await server.fetch("/api/requests", { token })).json()) as RequestJson[];
    const attachment = list.find((r) => r.email === email)?.attachments[0];
    expect(attachment?.filename).toMatch(/^[0-9a-f]{32}\.png$/);
    const [hash] = (attachment?.filename ?? "").split(".");

    const patched = await patch({ logo: { hash, type: "png" } });
    const anonymous = await server.fetch(`/branding/logo?v=${hash}`);
    const published = anonymous.status === 200 ? await anonymous.text() : "";
    // Replacing the "logo" drops the previous one: here it would be the visitor's attachment.
    await putLogo(logoForm(pngBytes()));
    const stillThere = await server.fetch(`/api/uploads/${attachment?.filename}`, { token });
    await server.fetch("/api/admin/branding/logo", { method: "DELETE", token });

    expect(published).not.toContain("PRIVATE-VISITOR-SCAN");
    expect(patched.status).toBe(400);
    expect(stillThere.status).toBe(200);
  });
});

describe("mails and calendar", () => {
  it("the brand's name is the From name and the invite organiser's", async () => {
    await patch({ name: 'Agentur "Süd" <x>' });
    const r = db()
      .insert(requests)
      .values({
        name: "Ida Invite",
        email: "ida-brand@example.com",
        phone: "+49 30 123456",
        companyDescription: "Eine Firma mit vielen Ideen und Mitarbeitenden",
        description: "App",
      })
      .returning()
      .get();
    let day = firstBookableDay(1);
    let slot: string | undefined;
    for (let i = 0; i < 14 && !slot; i++) {
      const res = await server.fetch("/api/calcom/available-slots", {
        method: "POST",
        json: { startDate: day, day },
      });
      slot = ((await res.json()).slots as { time: string }[])[0]?.time;
      day = new Date(new Date(`${day}T12:00:00Z`).getTime() + 86400_000).toISOString().slice(0, 10);
    }
    const booked = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId: r.id, startTime: slot, timeZone: "Europe/Berlin" },
    });
    expect(booked.status).toBe(201);
    await server.drainOutbox();
    const mail = inbox.mails.find((m) => m.to.includes("ida-brand@example.com"));
    if (!mail) throw new Error("no confirmation");
    expect(mail.from).toEqual({ name: 'Agentur "Süd" <x>', address: "team@example.com" });
    const part = mail.attachments.find((a) => a.mimeType === "text/calendar");
    const event = new ICAL.Component(ICAL.parse(part?.content ?? "")).getFirstSubcomponent(
      "vevent",
    );
    const organizer = event?.getFirstProperty("organizer");
    expect(organizer?.getParameter("cn")).toBe('Agentur "Süd" <x>');
    expect(String(organizer?.getFirstValue()).toLowerCase()).toBe("mailto:team@example.com");
  });
});

describe("the landing page under a brand", () => {
  it("names the agency once in the title when the headline already does", async () => {
    await patch({ name: "Agentur Süd", heroTitle: "Ihre Website in drei Tagen – von Agentur Süd" });
    expect(await landing()).toContain(
      "<title>Ihre Website in drei Tagen – von Agentur Süd</title>",
    );
    await patch({ heroTitle: "Ihre Website in drei Tagen" });
    expect(await landing()).toContain("<title>Ihre Website in drei Tagen – Agentur Süd</title>");
    await patch({ name: null, heroTitle: null });
  });

  it("colours the feature icons with the brand's shades once a colour is set (today's blue before)", async () => {
    await patch({ primaryColor: null });
    const icon = /<span aria-hidden="true" class="inline-flex ([^"]+)" data-feature-icon/;
    expect((await landing()).match(icon)?.[1]).toBe("text-blue-700 dark:text-blue-300");
    await patch({ primaryColor: "#0b5d1e" });
    const branded = await landing();
    expect(branded.match(icon)?.[1]).toBe("text-indigo-700 dark:text-indigo-300");
    expect(branded).toContain("--color-indigo-700");
    await patch({ primaryColor: null });
  });
});
