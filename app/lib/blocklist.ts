import { z } from "zod";
import { clampedSetting } from "./setting-ranges";

/**
 * The spam blocklist (ADR 251): e-mail addresses and domains with `*` wildcards, IPv4
 * and IPv6 addresses and CIDR ranges. A submission matching one entry is quarantined, even with a
 * valid proof of work. Pure: the settings schema and the submission's verdict share it.
 *
 * - `anna@example.com`, `*@example.com`, `spam*@*.example` — an e-mail pattern (has an `@`),
 *   matched against the whole address;
 * - `example.com`, `*.example.com` — a domain pattern, matched against the address's domain
 *   (`example.com` alone matches that domain only, not its subdomains);
 * - `192.0.2.7`, `192.0.2.0/24`, `2001:db8::1`, `2001:db8::/32` — the client address.
 */
export type BlocklistEntry =
  | { kind: "email" | "domain"; pattern: RegExp }
  | { kind: "ip"; version: 4 | 6; network: bigint; prefix: number };

const IPV4_PART = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

function parseIpv4(text: string): bigint | null {
  const parts = text.split(".");
  if (parts.length !== 4 || !parts.every((p) => IPV4_PART.test(p))) return null;
  return parts.reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

function parseIpv6(text: string): bigint | null {
  const address = text.replace(/%.*$/, "");
  if (!/^[0-9a-f:.]+$/i.test(address) || address.split("::").length > 2) return null;
  const compressed = address.includes("::");
  const [head = "", tail = ""] = compressed ? address.split("::") : [address];
  const groups = [head, tail].map((part) => (part ? part.split(":") : []));
  // An IPv4 tail (::ffff:192.0.2.1) stands for the last two groups.
  const lastList = groups[1]?.length ? groups[1] : groups[0];
  const last = lastList?.at(-1);
  if (lastList && last?.includes(".")) {
    const v4 = parseIpv4(last);
    if (v4 === null) return null;
    lastList.splice(-1, 1, (v4 >> 16n).toString(16), (v4 & 0xffffn).toString(16));
  }
  const [before = [], after = []] = groups;
  const missing = 8 - before.length - after.length;
  if (compressed ? missing < 1 : missing !== 0) return null;
  const all = [...before, ...Array<string>(missing).fill("0"), ...after];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  return all.reduce((value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)), 0n);
}

/** An address as version and number; IPv4-mapped IPv6 (::ffff:a.b.c.d) counts as IPv4. */
export function parseIp(text: string): { version: 4 | 6; value: bigint } | null {
  const v4 = parseIpv4(text.trim());
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = parseIpv6(text.trim());
  if (v6 === null) return null;
  if (v6 >> 32n === 0xffffn) return { version: 4, value: v6 & 0xffffffffn };
  return { version: 6, value: v6 };
}

const globPattern = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`);

const DOMAIN = /^[a-z0-9*]([a-z0-9*-]*[a-z0-9*])?(\.[a-z0-9*]([a-z0-9*-]*[a-z0-9*])?)*$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** One entry of the list, or null when it is none of the accepted forms. */
export function parseBlocklistEntry(raw: string): BlocklistEntry | null {
  const entry = raw.trim().toLowerCase();
  if (!entry) return null;
  if (entry.includes("@")) {
    return EMAIL.test(entry) ? { kind: "email", pattern: globPattern(entry) } : null;
  }
  const [address, prefixText, ...rest] = entry.split("/");
  const ip = parseIp(address ?? "");
  if (ip) {
    const bits = ip.version === 4 ? 32 : 128;
    // A CIDR of an IPv4-mapped address counts its prefix within the IPv4 part.
    const mappedOffset = ip.version === 4 && address?.includes(":") ? 96 : 0;
    if (rest.length || (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText))) return null;
    const prefix = prefixText === undefined ? bits : Number(prefixText) - mappedOffset;
    if (prefix < 0 || prefix > bits) return null;
    const shift = BigInt(bits - prefix);
    return { kind: "ip", version: ip.version, network: (ip.value >> shift) << shift, prefix };
  }
  // A domain's last label is never all digits (that is a mistyped address).
  const topLevel = entry.slice(entry.lastIndexOf(".") + 1);
  if (prefixText !== undefined || !DOMAIN.test(entry) || /^[\d*]*$/.test(topLevel)) return null;
  return { kind: "domain", pattern: globPattern(entry) };
}

/** Whether an e-mail address or a client IP matches one entry of the list. */
export function blocklistMatch(
  entries: readonly string[],
  subject: { email?: string | null; ip?: string | null },
): boolean {
  const email = subject.email?.trim().toLowerCase() ?? "";
  const domain = email.includes("@") ? email.slice(email.lastIndexOf("@") + 1) : "";
  const ip = subject.ip ? parseIp(subject.ip) : null;
  return entries.some((raw) => {
    const entry = parseBlocklistEntry(raw);
    if (!entry) return false;
    if (entry.kind !== "ip")
      return entry.kind === "email"
        ? !!email && entry.pattern.test(email)
        : !!domain && entry.pattern.test(domain);
    if (!ip || ip.version !== entry.version) return false;
    const shift = BigInt((entry.version === 4 ? 32 : 128) - entry.prefix);
    return (ip.value >> shift) << shift === entry.network;
  });
}

export const BLOCKLIST_ENTRY_REQUIRED =
  "Bitte geben Sie einen Eintrag ein oder entfernen Sie die Zeile.";
export const BLOCKLIST_ENTRY_TOO_LONG = "Bitte geben Sie höchstens 254 Zeichen ein.";

/**
 * Why one entry is none of the accepted forms, in German (guessing the form from its characters),
 * or null when it is fine: the settings form shows it at the row, the API names the row.
 */
export function blocklistEntryError(raw: string): string | null {
  const entry = raw.trim();
  if (!entry) return BLOCKLIST_ENTRY_REQUIRED;
  if (entry.length > 254) return BLOCKLIST_ENTRY_TOO_LONG;
  if (parseBlocklistEntry(entry)) return null;
  if (entry.includes("@"))
    return "Bitte geben Sie eine gültige E-Mail-Adresse ein, z. B. anna@example.com oder *@example.com.";
  if (entry.includes("/"))
    return "Bitte geben Sie einen gültigen CIDR-Bereich ein, z. B. 192.0.2.0/24 oder 2001:db8::/32.";
  if (entry.includes(":") || /^[\d.]+$/.test(entry))
    return "Bitte geben Sie eine gültige IP-Adresse ein, z. B. 192.0.2.7 oder 2001:db8::1.";
  return "Bitte geben Sie eine gültige Domain ohne Leerzeichen ein, z. B. example.com oder *.example.com.";
}

/** One entry of the list: trimmed, lower-cased, refused with `blocklistEntryError`'s message. */
export const BlocklistEntrySchema = z
  .string({ error: BLOCKLIST_ENTRY_REQUIRED })
  .trim()
  .toLowerCase()
  .superRefine((entry, ctx) => {
    const message = blocklistEntryError(entry);
    if (message) ctx.addIssue({ code: "custom", message });
  });

export const BLOCKLIST_MAX = 1000;

/**
 * `spam` in the configuration: the blocklist, how long quarantined requests are kept and how many
 * of their bookings a day hold a slot (ADR 355).
 */
export const SpamSettingsSchema = z.object({
  blocklist: z
    .array(BlocklistEntrySchema)
    .max(BLOCKLIST_MAX)
    .default([])
    .transform((list) => [...new Set(list)]),
  quarantineDays: clampedSetting("spam.quarantineDays"),
  heldBookingsPerDay: clampedSetting("spam.heldBookingsPerDay"),
});
export type SpamSettings = z.infer<typeof SpamSettingsSchema>;
