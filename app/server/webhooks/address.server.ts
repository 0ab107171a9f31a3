import { BlockList, isIP } from "node:net";
import { env } from "../platform/env.server";

/**
 * SSRF rules for webhook targets (ADR 141, 143). "strict" by default: only https and only public
 * unicast addresses. "local" only outside production with a loopback APP_URL, or with the explicit
 * opt-in WEBHOOK_ALLOW_LOCAL: then http and loopback targets (127.0.0.0/8, ::1) are allowed too,
 * but no other private range. Link-local (cloud metadata 169.254.169.254), unspecified, multicast
 * and reserved addresses are refused in both modes.
 */
export type TargetPolicy = "strict" | "local";

const always = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["169.254.0.0", 16],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  always.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::", 128],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  always.addSubnet(net, prefix, "ipv6");

const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

const nonPublic = new BlockList();
for (const [net, prefix] of [
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
] as const)
  nonPublic.addSubnet(net, prefix, "ipv4");
for (const [net, prefix] of [
  ["::1", 128],
  ["::", 96], // IPv4-compatible (0:0:0:0:0:0:a9fe:a9fe)
  ["::ffff:0:0:0", 96], // IPv4-translated (::ffff:0:a.b.c.d)
  ["fc00::", 7],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
] as const)
  nonPublic.addSubnet(net, prefix, "ipv6");

/** "::ffff:7f00:1" / "::ffff:127.0.0.1" (IPv4-mapped, also IPv4-compatible "::7f00:1") -> "127.0.0.1". */
export function unmapIPv4(address: string): string {
  const lower = address.toLowerCase().replace(/^\[|\]$/g, "");
  const dotted = lower.match(/^(?:0{0,4}:){2,5}(?:ffff:)?(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted && isIP(dotted[1]) === 4) return dotted[1];
  const hex = lower.match(/^::(?:ffff:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (hex) {
    const high = Number.parseInt(hex[1], 16);
    const low = Number.parseInt(hex[2], 16);
    return [high >> 8, high & 255, low >> 8, low & 255].join(".");
  }
  return lower;
}

/** Why a resolved address may not be contacted under the policy; null when it may. */
export function refusedAddress(address: string, policy: TargetPolicy): string | null {
  const plain = unmapIPv4(address);
  const family = isIP(plain);
  if (family === 0) return "Keine gültige IP-Adresse.";
  const type = family === 4 ? "ipv4" : "ipv6";
  if (always.check(plain, type))
    return `Adresse ${plain} ist nicht erlaubt (link-local/reserviert).`;
  if (nonPublic.check(plain, type) && !(policy === "local" && loopback.check(plain, type)))
    return `Adresse ${plain} ist nicht öffentlich erreichbar und daher nicht erlaubt.`;
  return null;
}

const LOCAL_HOSTS = /^(localhost|.*\.localhost|127(?:\.\d+){3}|\[::1\]|::1)$/i;

/**
 * local with the opt-in WEBHOOK_ALLOW_LOCAL, or outside production when APP_URL's host is loopback;
 * strict otherwise, whatever APP_URL's scheme (an http APP_URL on a public host stays strict).
 */
export function targetPolicy(
  settings: Pick<ReturnType<typeof env>, "APP_URL" | "NODE_ENV" | "WEBHOOK_ALLOW_LOCAL"> = env(),
): TargetPolicy {
  if (settings.WEBHOOK_ALLOW_LOCAL) return "local";
  if (settings.NODE_ENV === "production") return "strict";
  try {
    return LOCAL_HOSTS.test(new URL(settings.APP_URL).hostname) ? "local" : "strict";
  } catch {
    return "strict";
  }
}

/**
 * Checks a target URL before any DNS lookup: scheme under the policy, and the host when it is an IP
 * literal (the WHATWG parser already turned decimal/hex/short IPv4 forms into dotted quads). Names
 * are checked after resolution, by the connection's lookup (http.server.ts).
 */
export function refusedUrl(raw: string, policy: TargetPolicy = targetPolicy()): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Ungültige URL.";
  }
  if (url.protocol !== "https:" && !(policy === "local" && url.protocol === "http:"))
    return "Nur https-Adressen sind erlaubt.";
  if (url.username || url.password) return "Zugangsdaten in der URL sind nicht erlaubt.";
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host)) return refusedAddress(host, policy);
  if (policy === "strict" && LOCAL_HOSTS.test(host)) return `Adresse ${host} ist nicht erlaubt.`;
  return null;
}
