// The receipt mail for every accepted request (ADR 220): its content, one per address per 24 h
// (durable and safe under parallel submissions), and the signed request link it carries.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/server/platform/db.server";
import { RECEIPT_KIND, RECEIPT_SUBJECT, sendReceipt } from "~/server/requests/receipt.server";
import { visitorCookie } from "~/server/visitors/visitor.server";
import { mailOutbox, requests } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { type ReceivedMail, startSmtpInbox } from "../smtp-inbox";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let server: TestServer;
const APP_URL = "https://portal.example.com";

beforeAll(async () => {
  inbox = await startSmtpInbox();
  server = await startTestServer({
    SMTP_URL: inbox.url,
    APP_URL,
    SUBMISSION_RATE_LIMIT: "100/1h",
  });
});
afterAll(async () => {
  await server.close();
  await inbox.close();
});

const tag = () => Math.random().toString(36).slice(2, 8);

async function submitApi(fields: Record<string, string>) {
  // A solved proof of work: the receipt belongs to the normal flow (ADR 250).
  const altcha = await solvedAltcha(server.url);
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart({ ...fields, altcha }),
  });
  expect(res.status).toBe(201);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0] as string;
  return { id: ((await res.json()) as { id: number }).id, cookie };
}

/** Receipts that reached the inbox for an address (after a drain). */
async function receiptsTo(email: string): Promise<ReceivedMail[]> {
  await server.drainOutbox();
  return inbox.mails.filter((m) => m.to.includes(email) && m.subject === RECEIPT_SUBJECT);
}

const linkIn = (mail: ReceivedMail) => {
  const found = /https:\/\/portal\.example\.com(\/meine-anfrage\?token=[\w.-]+)/.exec(mail.text);
  if (!found?.[1]) throw new Error("no request link in the receipt");
  return found[1];
};

const cookieOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .find((c) => c.startsWith("visitor_requests="))
    ?.split(";")[0];

describe("receipt mail", () => {
  it("carries the number, the promise, the demo offer and the link, and no visitor text but the first name", async () => {
    const email = `rita.${tag()}@example.com`;
    const spam = "Billige Uhren bei https://uhren.example/angebot – jetzt kaufen";
    const { id } = await submitApi(
      validFields({
        name: "https://spam.example/x Rita Receipt",
        email,
        phone: "+49 30 1234987",
        companyDescription: `Firma ${spam}`,
        description: spam,
      }),
    );
    const [mail, ...more] = await receiptsTo(email);
    expect(more).toHaveLength(0);
    expect(mail?.subject).toBe("Deine Anfrage ist bei uns eingegangen");
    expect(mail?.to).toEqual([email]);
    for (const body of [mail!.text, mail!.html]) {
      expect(body).toContain("Hallo Rita,");
      expect(body).toContain(`#${String(id).padStart(4, "0")}`);
      expect(body).toContain("innerhalb von drei Tagen");
      expect(body).toContain("Demo-Termin");
      expect(body).toContain(`${APP_URL}/meine-anfrage?token=`);
      // Nothing else the visitor typed: no description, company, URL from the name, phone or address.
      for (const typed of ["Uhren", "uhren.example", "spam.example", "Receipt", "1234987", email])
        expect(body).not.toContain(typed);
    }
    expect(mail!.text).toMatch(
      /Meine Anfrage öffnen: https:\/\/portal\.example\.com\/meine-anfrage/,
    );
    // Queued through the outbox like every mail, tied to the request (erased with it).
    const rows = db().select().from(mailOutbox).where(eq(mailOutbox.requestId, id)).all();
    expect(rows.filter((r) => r.kind === RECEIPT_KIND)).toHaveLength(1);
  });

  it("is sent for the no-JS form too, greeting a cut first name (<= 50 characters)", async () => {
    const email = `form.${tag()}@example.com`;
    const longName = `${"Maximiliane".repeat(6)} Formular`;
    const res = await server.fetch("/?index", {
      method: "POST",
      body: multipart(
        validFields({ name: longName, email, altcha: await solvedAltcha(server.url) }),
      ),
    });
    expect(res.status).toBe(303);
    const [mail] = await receiptsTo(email);
    expect(mail?.text).toContain(`Hallo ${longName.slice(0, 50)},`);
    expect(mail?.text).not.toContain(longName.slice(0, 51));
  });

  it("greets without a name when the name is only a link", async () => {
    const email = `nolink.${tag()}@example.com`;
    await submitApi(validFields({ name: "www.spam.example", email }));
    const [mail] = await receiptsTo(email);
    expect(mail?.text.startsWith("Hallo,\n")).toBe(true);
    expect(mail?.text).not.toContain("spam.example");
  });

  it("goes out at most once per address in 24 hours, also for 10 parallel submissions", async () => {
    const email = `parallel.${tag()}@example.com`;
    const results = await Promise.all(
      Array.from({ length: 10 }, () => submitApi(validFields({ email }))),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(10);
    expect(await receiptsTo(email)).toHaveLength(1);
    // The same address in other spelling counts as the same address.
    await submitApi(validFields({ email: `  ${email.toUpperCase()} ` }));
    expect(await receiptsTo(email)).toHaveLength(1);
    const queued = db()
      .select({ to: mailOutbox.to })
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, RECEIPT_KIND))
      .all()
      .filter((m) => m.to.toLowerCase().includes(email));
    expect(queued).toHaveLength(1);

    // Durable: a second instance of the module (its own limiter, as after a restart) sees the same
    // window in the database; 24 hours later the address gets a receipt again.
    const last = results.at(-1)!.id;
    expect(await sendReceipt(last)).toBe("limited");
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 24 * 3600_000 + 60_000);
      expect(await sendReceipt(last)).toBe("queued");
    } finally {
      vi.useRealTimers();
    }
    // Queued "a day later": due then.
    await server.drainOutbox(new Date(Date.now() + 25 * 3600_000));
    expect(await receiptsTo(email)).toHaveLength(2);
  });

  it("counts subaddresses (+tag) and Gmail's dotted spellings as the one mailbox they reach", async () => {
    const base = `bomb${tag()}`;
    const spellings = [
      `${base}@example.com`,
      `${base}+1@example.com`,
      `${base}+spam+2@Example.com`,
      `${base}@gmail.com`,
      `${base.slice(0, 2)}.${base.slice(2)}@gmail.com`,
      `${base}+x@googlemail.com`,
    ];
    for (const email of spellings) await submitApi(validFields({ email }));
    await server.drainOutbox();
    const received = inbox.mails.filter(
      (m) => m.subject === RECEIPT_SUBJECT && m.to.some((to) => to.includes(base.slice(2))),
    );
    // One for the example.com mailbox, one for the Gmail mailbox.
    expect(received.map((m) => m.to[0]?.toLowerCase()).sort()).toEqual([
      `${base}@example.com`,
      `${base}@gmail.com`,
    ]);
  });

  it("a failed submission sends nothing and keeps the address's receipt for the next one", async () => {
    const email = `invalid.${tag()}@example.com`;
    const res = await server.fetch("/api/requests", {
      method: "POST",
      body: multipart(validFields({ email, companyDescription: "" })),
    });
    expect(res.status).toBe(400);
    expect(await receiptsTo(email)).toHaveLength(0);
    await submitApi(validFields({ email }));
    expect(await receiptsTo(email)).toHaveLength(1);
  });
});

describe("signed request link", () => {
  async function receivedLink() {
    const email = `link.${tag()}@example.com`;
    const submitted = await submitApi(validFields({ name: "Lina Link", email }));
    const [mail] = await receiptsTo(email);
    return { ...submitted, link: linkIn(mail!) };
  }

  it("restores the request in a browser without cookies: history, booking and withdrawal", async () => {
    const { id, link, cookie: original } = await receivedLink();
    // Before: another browser cannot book for the request.
    expect((await server.fetch(`/termin?anfrage=${id}`)).status).toBe(404);

    const opened = await server.fetch(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(`/?geoeffnet=${id}#history`);
    expect(opened.headers.get("cache-control")).toContain("no-store");
    const cookie = cookieOf(opened);
    expect(cookie).toBeTruthy();

    const landing = await (
      await server.fetch(`/?geoeffnet=${id}`, { headers: { cookie: cookie! } })
    ).text();
    expect(landing).toContain(
      `Deine Anfrage #${String(id).padStart(4, "0")} ist jetzt auch auf diesem Gerät gespeichert.`,
    );
    expect(landing).toContain(`#${String(id).padStart(4, "0")}`);
    expect(landing).toContain(`/termin?anfrage=${id}`);
    expect(landing).toContain("Anfrage zurückziehen");

    const booking = await server.fetch(`/termin?anfrage=${id}`, { headers: { cookie: cookie! } });
    expect(booking.status).toBe(200);
    const bookingHtml = await booking.text();
    expect(bookingHtml).toContain("Nächster Monat");
    expect(bookingHtml).not.toContain("nur für die eigene Anfrage");

    // The notice never names a request this browser does not hold.
    const stranger = await (await server.fetch(`/?geoeffnet=${id}`)).text();
    expect(stranger).not.toContain("ist jetzt auch auf diesem Gerät gespeichert");

    // ziel=termin leads straight to the booking page.
    const toBooking = await server.fetch(`${link}&ziel=termin`);
    expect(toBooking.status).toBe(302);
    expect(toBooking.headers.get("location")).toBe(`/termin?anfrage=${id}`);

    // The submitting browser keeps its own entry.
    const again = await server.fetch(link, { headers: { cookie: original } });
    expect(again.status).toBe(302);
    expect(cookieOf(again)).toBeUndefined();

    // Withdrawal from the restored browser erases the request; the link is refused afterwards.
    const withdrawn = await server.fetch("/anfrage-zurueckziehen", {
      method: "POST",
      headers: { cookie: cookie! },
      body: new URLSearchParams({ id: String(id), confirmed: "1" }),
    });
    expect(withdrawn.status).toBe(303);
    expect(db().select().from(requests).where(eq(requests.id, id)).get()).toBeUndefined();
    const dead = await server.fetch(link);
    expect(dead.status).toBe(404);
    const html = await dead.text();
    expect(html).toContain("Dieser Link ist ungültig oder die Anfrage wurde inzwischen gelöscht.");
    expect(html).toContain("<h1");
    expect(cookieOf(dead)).toBeUndefined();
  });

  it("refuses a tampered link with a German page", async () => {
    const { id, link } = await receivedLink();
    const token = new URL(link, APP_URL).searchParams.get("token")!;
    const [, signature] = token.split(".");
    const flipped = `${signature!.slice(0, -2)}${signature!.endsWith("AA") ? "BB" : "AA"}`;
    const other = await submitApi(validFields());
    for (const forged of [
      `${id}.${flipped}`,
      `${other.id}.${signature}`,
      `${id}`,
      `${id}.${signature}.x`,
      "abc.def",
      "x".repeat(300),
    ]) {
      const res = await server.fetch(`/meine-anfrage?token=${encodeURIComponent(forged)}`);
      expect(res.status, forged).toBe(404);
      expect(cookieOf(res)).toBeUndefined();
      expect(await res.text()).toContain("Dieser Link ist ungültig");
    }
    expect((await server.fetch("/meine-anfrage")).status).toBe(404);
    // A link's signature proves only its own request: moved to another id in a (validly signed)
    // history cookie, it opens nothing; under its own id it does.
    const entry = (to: number) => visitorCookie().serialize([{ id: to, s: `l:${signature}` }]);
    const moved = (await entry(other.id)).split(";")[0]!;
    expect(
      (await server.fetch(`/termin?anfrage=${other.id}`, { headers: { cookie: moved } })).status,
    ).toBe(404);
    const own = (await entry(id)).split(";")[0]!;
    expect((await server.fetch(`/termin?anfrage=${id}`, { headers: { cookie: own } })).status).toBe(
      200,
    );
  });

  it("expires with the request's retention and dies when the request is anonymised", async () => {
    const { id, link } = await receivedLink();
    const past = new Date(Date.now() - 25 * 31 * 86400_000);
    db().update(requests).set({ updatedAt: past }).where(eq(requests.id, id)).run();
    const expired = await server.fetch(link);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain("Dieser Link ist abgelaufen");

    db()
      .update(requests)
      .set({ updatedAt: new Date(), email: "", visitorSecretHash: null })
      .where(eq(requests.id, id))
      .run();
    expect((await server.fetch(link)).status).toBe(404);
  });

  it("a restored history entry no longer shows the request once it is deleted", async () => {
    const { id, link } = await receivedLink();
    const cookie = cookieOf(await server.fetch(link))!;
    const token = await server.adminToken();
    expect((await server.fetch(`/api/requests/${id}`, { method: "DELETE", token })).status).toBe(
      200,
    );
    const landing = await (await server.fetch("/", { headers: { cookie } })).text();
    expect(landing).not.toContain(`/termin?anfrage=${id}`);
    expect((await server.fetch(`/termin?anfrage=${id}`, { headers: { cookie } })).status).toBe(404);
  });
});
