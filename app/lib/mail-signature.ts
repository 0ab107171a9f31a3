import { LEGAL_FORM_SHORT, type MailIdentity, SIGN_OFF_DEFAULTS } from "./mail-identity";

/** Who reads a mail: visitors are greeted with "du", admins with "Sie" (ADR 325). */
export type MailAudience = "visitor" | "admin";

/**
 * The one signature block of every mail (ADR 325): the sign-off line of the audience, the name
 * the team signs with, and the legal details of the chosen legal form (one line each).
 */
export type MailSignature = { signOff: string; name: string; legal: string[] };

const join = (parts: (string | null | false | undefined)[], separator = " · ") =>
  parts.filter(Boolean).join(separator);

const labelled = (label: string, value: string | null) => (value ? `${label}: ${value}` : null);

/** "Anna Muster, Bernd Beispiel" with the chair marked "(Vorsitz)" (§80 AktG). */
function boardWithChair(members: string | null, chair: string | null): string | null {
  if (!members) return chair ? `${chair} (Vorsitz)` : null;
  if (!chair) return members;
  const names = members
    .split(/[,;]/)
    .map((n) => n.trim())
    .filter(Boolean);
  const at = names.findIndex((n) => n.toLowerCase() === chair.toLowerCase());
  if (at < 0) return [`${chair} (Vorsitz)`, ...names].join(", ");
  names[at] = `${names[at]} (Vorsitz)`;
  return names.join(", ");
}

/** The legal lines of the identity, as far as it is filled in. */
export function legalLines(identity: MailIdentity): string[] {
  const i = identity;
  const form = i.legalForm;
  const address = join([i.street, join([i.postalCode, i.city], " ")], ", ");
  const register =
    form === "ek"
      ? join([
          labelled("Ort der Handelsniederlassung", i.seat),
          labelled("Registergericht", i.registerCourt),
          i.registerNumber,
        ])
      : form && !["gbr", "einzelunternehmen", "freiberufler"].includes(form)
        ? join([
            `Rechtsform: ${LEGAL_FORM_SHORT[form]}`,
            labelled("Sitz", i.seat),
            labelled("Registergericht", i.registerCourt),
            i.registerNumber,
          ])
        : form === "gbr"
          ? "Rechtsform: GbR"
          : null;
  const people: (string | null)[] = [];
  if (form === "gmbh" || form === "ug") {
    people.push(labelled("Geschäftsführer", i.managingDirectors));
    people.push(labelled("Vorsitz des Aufsichtsrats", i.supervisoryBoardChair));
  }
  if (form === "ag") {
    people.push(labelled("Vorstand", boardWithChair(i.boardMembers, i.boardChair)));
    people.push(labelled("Vorsitz des Aufsichtsrats", i.supervisoryBoardChair));
  }
  if (form === "gmbh-co-kg") {
    const gp = join(
      [
        i.generalPartner,
        labelled("Sitz", i.generalPartnerSeat),
        labelled("Registergericht", i.generalPartnerRegisterCourt),
        i.generalPartnerRegisterNumber,
      ],
      ", ",
    );
    people.push(gp ? `Persönlich haftende Gesellschafterin: ${gp}` : null);
    people.push(
      labelled(
        "Geschäftsführer der persönlich haftenden Gesellschafterin",
        i.generalPartnerDirectors,
      ),
    );
  }
  return [
    i.companyName,
    address || null,
    join([labelled("Telefon", i.phone), labelled("E-Mail", i.email)]) || null,
    register || null,
    ...people,
    labelled("USt-IdNr.", i.vatId),
  ].filter((l): l is string => Boolean(l));
}

/**
 * The signature of a mail to `audience`: its sign-off line, the brand's name when one is set (else
 * the Firma, else the product's name) and the legal lines.
 */
export function mailSignature(
  identity: MailIdentity,
  brand: { name: string; isSet: boolean },
  audience: MailAudience,
): MailSignature {
  const signOff =
    audience === "visitor"
      ? (identity.signOffVisitor ?? SIGN_OFF_DEFAULTS.signOffVisitor)
      : (identity.signOffAdmin ?? SIGN_OFF_DEFAULTS.signOffAdmin);
  const name = brand.isSet ? brand.name : (identity.companyName ?? brand.name);
  return { signOff, name, legal: legalLines(identity) };
}
