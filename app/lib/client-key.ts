/**
 * The one client identity of every limit (ADR 254): the request slots of the server (ADR 197) and
 * the counters of submissions, bookings, reschedules, logins and password-reset requests.
 * An IPv4 address counts as is (an IPv4-mapped IPv6 address as its IPv4 address); an IPv6 address
 * by its /56 — what an ISP hands one home subscriber — so one client is one client however many of
 * its 256 /64s (and 2^64 addresses each) it uses. Anything else (an unknown address) as is.
 */
export function clientKey(ip: string): string {
  const bare = ip.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(bare);
  if (mapped) return mapped[1] as string;
  if (!bare.includes(":")) return bare;
  const groups = expandIpv6(bare);
  if (!groups) return bare;
  return `${groups.slice(0, 3).join(":")}:${(groups[3] as string).padStart(4, "0").slice(0, 2)}/56`;
}

/**
 * The network of a client, beside its own identity (ADR 321, 322): an IPv4 address by its /24, an
 * IPv6 address by its /48 — what one site, office or tunnel broker's customer gets (a /48 holds
 * 256 clients of /56). The request slots and the counters of submissions and bookings also count
 * per network, with their own, higher limits. Anything else (an unknown address) as is.
 */
export function networkKey(ip: string): string {
  const bare = ip.trim();
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(bare);
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.0/24`;
  if (!bare.includes(":")) return bare;
  const groups = expandIpv6(bare);
  if (!groups) return bare;
  return `${groups.slice(0, 3).join(":")}::/48`;
}

/**
 * The eight 16-bit groups of an IPv6 address ("::" filled in, zone dropped, leading zeros
 * dropped, lower case), or null when it is not one.
 */
function expandIpv6(ip: string): string[] | null {
  const address = ip.split("%")[0] as string;
  const halves = address.split("::");
  if (halves.length > 2) return null;
  const [head = "", tail = ""] = halves;
  const left = head ? head.split(":") : [];
  const right = halves.length === 2 && tail ? tail.split(":") : [];
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms other than the mapped one) is two groups.
  const last = right.length ? right : left;
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(last.at(-1) ?? "");
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    last.splice(-1, 1, ((a << 8) | b).toString(16), ((c << 8) | d).toString(16));
  }
  const fill = halves.length === 2 ? 8 - left.length - right.length : 0;
  if (fill < 0 || (halves.length === 1 && left.length !== 8)) return null;
  const groups = [...left, ...Array(fill).fill("0"), ...right];
  if (!groups.every((g) => /^[0-9a-f]{0,4}$/i.test(g))) return null;
  return groups.map((g) => (g || "0").toLowerCase().replace(/^0+(?=.)/, ""));
}
