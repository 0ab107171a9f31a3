/** The longest first name a visitor mail repeats (the receipt carries nothing else the visitor typed). */
export const FIRST_NAME_MAX = 50;

/** A word that could carry a link: a scheme, "www.", an address, a path or a domain-like name. */
const LINK_LIKE = /:\/\/|^www\.|@|\/|\\|[\p{L}\p{N}-]\.[\p{L}]{2,}/iu;

/**
 * The first name to greet a visitor with in a mail: the first word of the name that does not look
 * like a link (URLs, domains, e-mail addresses and paths are dropped), without control or
 * formatting characters, at most FIRST_NAME_MAX characters; "" when nothing is left.
 */
export function firstNameOf(name: string): string {
  const words = name
    .normalize("NFC")
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, " ")
    .split(/\s+/)
    .filter(Boolean);
  const first = words.find((word) => !LINK_LIKE.test(word)) ?? "";
  return Array.from(first).slice(0, FIRST_NAME_MAX).join("");
}
