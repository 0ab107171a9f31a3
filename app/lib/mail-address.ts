/**
 * Whether mail to this address can reach anyone: not a loopback or local-only domain
 * (`localhost`, `*.localhost`, `*.localdomain`, `*.local`, `*.invalid`, a domain without a dot).
 * The first admin's default `admin@localhost.localdomain` is the case it exists for: lead
 * notifications and password resets to such an address go nowhere.
 */
export function isDeliverableAddress(email: string): boolean {
  const at = email.lastIndexOf("@");
  if (at < 1) return false;
  const domain = email
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, "");
  if (!domain.includes(".")) return false;
  return !/(^|\.)(localhost|localdomain|local|invalid)$/.test(domain);
}
