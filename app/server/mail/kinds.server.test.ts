// The mail-kind registry (ADR 325): every kind of mail — present or future — is rendered with the
// signature block and the legal details, and no mail leaves the portal except through queueMail.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox } from "~db/schema";

const IDENTITY = {
  companyName: "Kleinbyte Software GmbH",
  legalForm: "gmbh",
  street: "Musterstraße 1",
  postalCode: "80331",
  city: "München",
  seat: "München",
  registerCourt: "Amtsgericht München",
  registerNumber: "HRB 123456",
  managingDirectors: "Erika Muster",
  vatId: "DE123456789",
  signOffVisitor: "Bis bald – dein Kleinbyte-Team",
  signOffAdmin: "Mit freundlichen Grüßen",
};
const LEGAL = [
  "Kleinbyte Software GmbH",
  "Musterstraße 1, 80331 München",
  "Rechtsform: GmbH · Sitz: München · Registergericht: Amtsgericht München · HRB 123456",
  "Geschäftsführer: Erika Muster",
  "USt-IdNr.: DE123456789",
];

describe("every mail kind carries the signature block", () => {
  it("each registered kind: the sign-off of its reader, the brand and the legal lines, text and HTML", async () => {
    const { saveConfiguration, getConfiguration } = await import(
      "../configuration/configuration.server"
    );
    const saved = saveConfiguration({
      ...getConfiguration(),
      branding: { ...getConfiguration().branding, name: "Kleinbyte" },
      mailIdentity: IDENTITY,
    });
    expect(saved.ok).toBe(true);
    const { MAIL_KINDS } = await import("./kinds.server");
    const { queueMail } = await import("./outbox.server");
    const { db } = await import("../platform/db.server");
    const kinds = Object.keys(MAIL_KINDS) as (keyof typeof MAIL_KINDS)[];
    expect(kinds.length).toBeGreaterThan(20);
    for (const kind of kinds) {
      const queued = queueMail({
        to: "leser@example.com",
        subject: `Probe ${kind}`,
        kind,
        content: { greeting: "Hallo,", paragraphs: ["Inhalt."] },
      });
      const row = db().select().from(mailOutbox).where(eq(mailOutbox.id, queued.id)).get();
      const signOff =
        MAIL_KINDS[kind] === "visitor" ? IDENTITY.signOffVisitor : IDENTITY.signOffAdmin;
      expect(row?.text, kind).toContain(`${signOff}\nKleinbyte\n\n-- \n${LEGAL.join("\n")}`);
      expect(row?.html, kind).toContain(`${signOff}<br>Kleinbyte`);
      for (const line of LEGAL) expect(row?.html, kind).toContain(line.replace("&", "&amp;"));
      expect(`${row?.text}${row?.html}`, kind).not.toContain("Anfrage-Portal");
    }
  });
});

/** The server's source files (tests excepted). */
function serverSources(dir = path.resolve("app/server")): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return serverSources(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

describe("no mail bypasses the registry", () => {
  const sources = serverSources().map((file) => ({
    file: path.relative(process.cwd(), file),
    text: readFileSync(file, "utf8"),
  }));
  const outbox = "app/server/mail/outbox.server.ts";

  // A kind outside MAIL_KINDS does not compile (queueMail's `kind: MailKind`); a mail that does not
  // go through queueMail is found here.
  it("only the outbox writes outbox rows, renders mails and talks to the mail server", () => {
    const writers = sources.filter((s) => /\.insert\(\s*mailOutbox\s*\)/.test(s.text));
    expect(writers.map((s) => s.file)).toEqual([outbox]);
    const transports = sources.filter((s) =>
      /from "nodemailer"|import\("nodemailer"\)|\.sendMail\(/.test(s.text),
    );
    expect(transports.map((s) => s.file)).toEqual([outbox]);
    const renderers = sources.filter(
      (s) => /\brenderMail\(/.test(s.text) && !s.file.endsWith("render.ts"),
    );
    expect(renderers.map((s) => s.file)).toEqual([outbox]);
  });
});
