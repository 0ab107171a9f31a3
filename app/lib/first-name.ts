/** The longest first name a visitor mail repeats (the receipt carries nothing else the visitor typed). */
export const FIRST_NAME_MAX = 50;

/**
 * A word that could carry a link or a number to call: a scheme (any colon: "tel:", "javascript:"),
 * "www.", an address, a path, a domain-like name (also with the ideographic full stop that domain
 * names accept as a dot; fullwidth forms are folded by NFKC first) or any digit.
 */
const LINK_LIKE = /:|^www\.|@|\/|\\|[\p{L}\p{N}-][.\u3002][\p{L}]{2,}|\p{N}/iu;

/**
 * The first name to greet a visitor with in a mail: the first word of the name that does not look
 * like a link (URLs, domains, e-mail addresses, paths and words with digits are dropped), without control or
 * formatting characters, at most FIRST_NAME_MAX characters; "" when nothing is left.
 */
export function firstNameOf(name: string): string {
  const words = name
    .normalize("NFKC")
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  const first = words.find((word) => !LINK_LIKE.test(word)) ?? "";
  return Array.from(first).slice(0, FIRST_NAME_MAX).join("");
}

/**
 * The greeting of every mail to a visitor (the receipt and the booking mails alike, ADR 328):
 * "Hallo <first name>," with the cleaned first name, "Hallo," when nothing is left — never the
 * whole typed name, which may carry a link or a number to a stranger's address.
 */
export function visitorGreeting(name: string): string {
  const first = firstNameOf(name);
  return first ? `Hallo ${first},` : "Hallo,";
}
