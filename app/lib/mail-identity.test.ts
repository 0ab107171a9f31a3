import { describe, expect, it } from "vitest";
import { fieldErrorsOf } from "./field-errors";
import {
  EMPTY_MAIL_IDENTITY,
  IDENTITY_MESSAGES,
  LEGAL_FORMS,
  type MailIdentity,
  MailIdentityFormSchema,
  MailIdentitySchema,
  mailIdentityFormDefaults,
  mailIdentityFromForm,
  missingIdentityFields,
  REQUIRED_FIELDS,
} from "./mail-identity";
import { legalLines, mailSignature } from "./mail-signature";

const gmbh: MailIdentity = {
  ...EMPTY_MAIL_IDENTITY,
  companyName: "Kleinbyte Software GmbH",
  legalForm: "gmbh",
  street: "Musterstraße 1",
  postalCode: "80331",
  city: "München",
  seat: "München",
  registerCourt: "Amtsgericht München",
  registerNumber: "HRB 123456",
  managingDirectors: "Erika Muster, Max Beispiel",
  vatId: "DE123456789",
  phone: "+49 89 123456",
  email: "kontakt@kleinbyte.de",
};

const errorsOf = (input: unknown) => {
  const parsed = MailIdentitySchema.safeParse(input);
  return parsed.success ? {} : fieldErrorsOf(parsed.error);
};

describe("the legal form decides the required fields", () => {
  it("a complete GmbH misses nothing; each form's own fields are asked for", () => {
    expect(missingIdentityFields(gmbh)).toEqual([]);
    expect(missingIdentityFields({ ...gmbh, managingDirectors: null })).toEqual([
      "Geschäftsführer (alle)",
    ]);
    // The same data as an AG lacks the Vorstand and the Aufsichtsrat's chair (§80 AktG).
    expect(missingIdentityFields({ ...gmbh, legalForm: "ag" })).toEqual([
      "Vorstand (alle Mitglieder)",
      "Vorsitz des Aufsichtsrats",
    ]);
    // A GmbH & Co. KG lacks the Komplementärin's §35a data (§125 HGB).
    expect(missingIdentityFields({ ...gmbh, legalForm: "gmbh-co-kg" })).toHaveLength(5);
    // Einzelunternehmen, Freiberufler and GbR: name and address, nothing more.
    for (const form of ["einzelunternehmen", "freiberufler", "gbr"] as const) {
      expect(
        missingIdentityFields({ ...EMPTY_MAIL_IDENTITY, ...pick(gmbh), legalForm: form }),
      ).toEqual([]);
    }
    // An eGbR is registered: Sitz, Registergericht, Registernummer.
    expect(
      missingIdentityFields({ ...EMPTY_MAIL_IDENTITY, ...pick(gmbh), legalForm: "egbr" }),
    ).toEqual(["Sitz der Gesellschaft", "Registergericht", "Registernummer"]);
  });

  it("an e.K. names its Ort der Handelsniederlassung and carries the suffix in its Firma (§37a HGB)", () => {
    const ek = { ...gmbh, legalForm: "ek" as const, companyName: "Kleinbyte Software" };
    expect(missingIdentityFields(ek)).toEqual(["Zusatz „e.K.“ in der Firma"]);
    expect(missingIdentityFields({ ...ek, companyName: "Kleinbyte Software e.K." })).toEqual([]);
    expect(missingIdentityFields({ ...ek, companyName: "Erika Muster e. Kfr." })).toEqual([]);
    expect(missingIdentityFields({ ...ek, seat: null })).toContain("Ort der Handelsniederlassung");
  });

  it("without a legal form: the form first, then what every form needs", () => {
    expect(missingIdentityFields(EMPTY_MAIL_IDENTITY)).toEqual([
      "Rechtsform",
      "Firma (wie im Register eingetragen)",
      "Straße und Hausnummer",
      "PLZ",
      "Ort",
    ]);
  });

  it("every form asks for the Firma and the address", () => {
    for (const form of LEGAL_FORMS) {
      expect(REQUIRED_FIELDS[form]).toEqual(
        expect.arrayContaining(["companyName", "street", "postalCode", "city"]),
      );
    }
  });
});

function pick(i: MailIdentity) {
  return { companyName: i.companyName, street: i.street, postalCode: i.postalCode, city: i.city };
}

describe("a saved identity may be incomplete, never malformed", () => {
  it("accepts a partial identity; empty texts are null", () => {
    const parsed = MailIdentitySchema.parse({ companyName: "  Kleinbyte GmbH ", city: "" });
    expect(parsed.companyName).toBe("Kleinbyte GmbH");
    expect(parsed.city).toBeNull();
    expect(parsed.legalForm).toBeNull();
  });

  it("refuses a line break where one line belongs, at the field", () => {
    expect(errorsOf({ registerNumber: "HRB\n123456" })).toEqual({
      registerNumber: [IDENTITY_MESSAGES.oneLine],
    });
    expect(errorsOf({ companyName: "Kleinbyte\u2028GmbH" })).toEqual({
      companyName: [IDENTITY_MESSAGES.oneLine],
    });
    expect(errorsOf({ signOffVisitor: "Viele Grüße\r\nBcc: x@example.com" })).toEqual({
      signOffVisitor: [IDENTITY_MESSAGES.oneLine],
    });
  });

  it("refuses HTML in any field", () => {
    expect(errorsOf({ managingDirectors: "<b>Erika</b>" })).toEqual({
      managingDirectors: [IDENTITY_MESSAGES.noMarkup],
    });
    expect(errorsOf({ signOffAdmin: "Grüße <img src=x>" })).toEqual({
      signOffAdmin: [IDENTITY_MESSAGES.noMarkup],
    });
  });

  it("refuses over-long fields, malformed numbers and addresses", () => {
    expect(errorsOf({ companyName: "x".repeat(161) })).toEqual({
      companyName: ["Höchstens 160 Zeichen."],
    });
    expect(errorsOf({ signOffVisitor: "x".repeat(121) })).toEqual({
      signOffVisitor: ["Höchstens 120 Zeichen."],
    });
    expect(errorsOf({ registerNumber: "HRB #123" })).toEqual({
      registerNumber: [IDENTITY_MESSAGES.registerNumber],
    });
    expect(errorsOf({ vatId: "123456789" })).toEqual({ vatId: [IDENTITY_MESSAGES.vatId] });
    expect(errorsOf({ email: "kontakt(at)kleinbyte" })).toEqual({
      email: [IDENTITY_MESSAGES.email],
    });
    expect(errorsOf({ phone: "ruf an" })).toEqual({ phone: [IDENTITY_MESSAGES.phone] });
    expect(errorsOf({ legalForm: "Ltd." })).toEqual({ legalForm: [IDENTITY_MESSAGES.legalForm] });
  });

  it("the card's form: the sign-off lines show their defaults and follow them when unchanged", () => {
    const shown = mailIdentityFormDefaults(gmbh);
    expect(shown.signOffVisitor).toBe("Viele Grüße");
    expect(shown.signOffAdmin).toBe("Mit freundlichen Grüßen");
    const saved = mailIdentityFromForm(MailIdentityFormSchema.parse(shown));
    expect(saved).toEqual(gmbh);
    const own = mailIdentityFromForm(
      MailIdentityFormSchema.parse({ ...shown, signOffVisitor: "Bis bald – dein Team" }),
    );
    expect(own.signOffVisitor).toBe("Bis bald – dein Team");
  });
});

describe("the signature block", () => {
  it("a GmbH: Firma, address, contact, register line with the Rechtsform, Geschäftsführer, VAT ID", () => {
    expect(legalLines(gmbh)).toEqual([
      "Kleinbyte Software GmbH",
      "Musterstraße 1, 80331 München",
      "Telefon: +49 89 123456 · E-Mail: kontakt@kleinbyte.de",
      "Rechtsform: GmbH · Sitz: München · Registergericht: Amtsgericht München · HRB 123456",
      "Geschäftsführer: Erika Muster, Max Beispiel",
      "USt-IdNr.: DE123456789",
    ]);
  });

  it("an AG marks the Vorstand's chair and names the Aufsichtsrat's", () => {
    const lines = legalLines({
      ...gmbh,
      legalForm: "ag",
      boardMembers: "Erika Muster, Max Beispiel",
      boardChair: "Max Beispiel",
      supervisoryBoardChair: "Carla Rat",
    });
    expect(lines).toContain("Vorstand: Erika Muster, Max Beispiel (Vorsitz)");
    expect(lines).toContain("Vorsitz des Aufsichtsrats: Carla Rat");
    expect(lines).not.toContain("Geschäftsführer: Erika Muster, Max Beispiel");
  });

  it("a GmbH & Co. KG names its Komplementärin with her register data and Geschäftsführer", () => {
    const lines = legalLines({
      ...gmbh,
      companyName: "Kleinbyte Software GmbH & Co. KG",
      legalForm: "gmbh-co-kg",
      registerNumber: "HRA 98765",
      generalPartner: "Kleinbyte Verwaltungs GmbH",
      generalPartnerSeat: "München",
      generalPartnerRegisterCourt: "Amtsgericht München",
      generalPartnerRegisterNumber: "HRB 555",
      generalPartnerDirectors: "Erika Muster",
    });
    expect(lines).toContain(
      "Persönlich haftende Gesellschafterin: Kleinbyte Verwaltungs GmbH, Sitz: München, Registergericht: Amtsgericht München, HRB 555",
    );
    expect(lines).toContain(
      "Geschäftsführer der persönlich haftenden Gesellschafterin: Erika Muster",
    );
  });

  it("an e.K. says Ort der Handelsniederlassung; a Freiberufler has no register line", () => {
    expect(legalLines({ ...gmbh, legalForm: "ek" })).toContain(
      "Ort der Handelsniederlassung: München · Registergericht: Amtsgericht München · HRB 123456",
    );
    const freelancer = legalLines({
      ...gmbh,
      legalForm: "freiberufler",
      companyName: "Erika Muster",
    });
    expect(freelancer.some((l) => l.includes("Register"))).toBe(false);
    expect(freelancer[0]).toBe("Erika Muster");
  });

  it("signs with the brand's name when one is set, else the Firma; the reader's sign-off", () => {
    const brand = { name: "Kleinbyte", isSet: true };
    expect(mailSignature(gmbh, brand, "visitor")).toMatchObject({
      signOff: "Viele Grüße",
      name: "Kleinbyte",
    });
    expect(
      mailSignature(
        { ...gmbh, signOffAdmin: "Beste Grüße" },
        { name: "Anfrage-Portal", isSet: false },
        "admin",
      ),
    ).toMatchObject({ signOff: "Beste Grüße", name: "Kleinbyte Software GmbH" });
    expect(
      mailSignature(EMPTY_MAIL_IDENTITY, { name: "Anfrage-Portal", isSet: false }, "admin"),
    ).toEqual({
      signOff: "Mit freundlichen Grüßen",
      name: "Anfrage-Portal",
      legal: [],
    });
  });
});
