import { blocklistMatch } from "~/lib/blocklist";
import { getConfiguration } from "../configuration/configuration.server";
import { env } from "../platform/env.server";
import { checkSolution } from "./altcha.server";

export type SpamVerdict = {
  /** Held in the quarantine whatever the solution's fate: no valid solution, or blocklisted. */
  quarantine: boolean;
  /** A valid solution to claim when the submission is stored (a replay claims nothing). */
  solution: { nonce: string; expiresAtMs: number } | null;
  /** On the blocklist: held without a way out but a human (no script-free challenge, ADR 326). */
  blocked: boolean;
};

/**
 * The spam verdict of a public submission (ADR 250): quarantined without a valid proof
 * of work (missing, forged, expired; a replay is found when the solution is claimed) or when the
 * address or the client IP is on the blocklist. `SPAM_PROTECTION=off` accepts everything.
 */
export async function spamVerdict(
  altcha: string | undefined,
  email: string,
  clientIp: string,
): Promise<SpamVerdict> {
  if (env().SPAM_PROTECTION === "off") return { quarantine: false, solution: null, blocked: false };
  const check = await checkSolution(altcha);
  const blocked = blocklistMatch(getConfiguration().spam.blocklist, { email, ip: clientIp });
  return {
    quarantine: blocked || !check.ok,
    solution: check.ok ? { nonce: check.nonce, expiresAtMs: check.expiresAtMs } : null,
    blocked,
  };
}
