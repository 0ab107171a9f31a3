import { sql } from "drizzle-orm";
import { networkOf } from "~/lib/audit";
import { clientKey } from "~/lib/client-key";
import { admins } from "~db/schema";
import { branding } from "../branding/branding.server";
import { queueMail } from "../mail/outbox.server";
import { db } from "../platform/db.server";
import {
  ACCOUNT_LOGIN_LIMIT,
  accountLoginLimiter,
  type LimitKeys,
  lockMailLimiter,
  loginLimiter,
  withNetwork,
} from "../platform/rate-limit.server";
import { audit } from "../privacy/audit.server";
import { createResetToken, resetUrl } from "./reset-token.server";

/**
 * The per-account login lock (ADR 263): failures counted per name from every address (an unknown
 * name the same way, so the answer tells nothing), 10 in 15 minutes lock the name for 15 minutes,
 * the owner gets at most one mail per lock with a reset link, and a completed reset lifts it.
 */
export const accountKey = (username: string) =>
  `account:${username.normalize("NFKC").toLowerCase()}`;

/**
 * The account's counter for its known devices (ADR 317): a stranger's failures never reach it, so
 * their lock never holds the owner's browser; a stolen device cookie still guesses no faster than
 * the lock allows (10 in 15 minutes, from all known devices together).
 */
export const knownDeviceKey = (username: string) => `${accountKey(username)}:known-device`;

/** The account counter a login attempt counts on: the known devices' own, or everyone's. */
export const accountCounterKey = (username: string, knownDevice: boolean) =>
  knownDevice ? knownDeviceKey(username) : accountKey(username);

const LOCK_SECONDS = ACCOUNT_LOGIN_LIMIT.durationSeconds;

function findAccount(username: string) {
  return db()
    .select()
    .from(admins)
    .where(sql`lower(${admins.username}) = lower(${username})`)
    .get();
}

/**
 * After a failed password: audited (coarsened: the account when it exists, never the typed name of
 * an unknown one, the network not the address); the failure that fills the window starts the lock.
 */
export async function recordLoginFailure(username: string, ip: string) {
  const account = findAccount(username);
  audit("Unbekannt", "login-failed", account ? account.username : "(unbekannter Name)", {
    netz: networkOf(ip),
  });
  await lockWhenFull(username, account);
}

/**
 * A wrong password already counted on the account's counter (the login's, or a step-up check of a
 * signed-in admin — step-up.server.ts): the failure that fills the window starts the lock and
 * mails the owner once.
 */
export async function lockWhenFull(
  username: string,
  account: typeof admins.$inferSelect | undefined = findAccount(username),
) {
  const limiter = accountLoginLimiter();
  const key = accountKey(username);
  if ((await limiter.check(key)).ok) return;
  // The lock starts now and lasts its full 15 minutes, however old the window's first failure is.
  await limiter.block(key, LOCK_SECONDS);
  if (!account) return;
  if (!(await lockMailLimiter().consume(key)).ok) return;
  audit("System", "login-locked", account.username, { minuten: LOCK_SECONDS / 60 });
  if (!account.isActive) return;
  const token = createResetToken(account.id);
  queueMail({
    to: account.email,
    subject: "Anmeldung vorübergehend gesperrt",
    kind: "login-locked",
    content: {
      greeting: `Hallo ${account.username},`,
      paragraphs: [
        `Für Ihren Admin-Zugang bei ${branding().name} wurde ${ACCOUNT_LOGIN_LIMIT.points}-mal hintereinander ein falsches Passwort eingegeben. Die Anmeldung ist deshalb für ${LOCK_SECONDS / 60} Minuten gesperrt.`,
        "Waren Sie das nicht, setzen Sie Ihr Passwort bitte jetzt zurück: Das hebt die Sperre sofort auf. Der Link ist eine Stunde gültig und kann nur einmal verwendet werden.",
      ],
      action: { label: "Passwort zurücksetzen", url: resetUrl(token) },
    },
  });
}

/** A completed reset or change lifts the account's lock (and allows the next lock mail). */
export async function clearAccountLock(username: string) {
  await accountLoginLimiter().reset(accountKey(username));
  await lockMailLimiter().reset(accountKey(username));
}

// Per client: an IPv4 address or an IPv6 /56 (ADR 254).
export const ipKey = (ip: string) => `login:ip:${clientKey(ip)}`;
export const userKey = (ip: string, username: string) =>
  `login:user:${clientKey(ip)}:${username.toLowerCase()}`;
/**
 * The counters every failed login counts on (password or passkey alone): the client's and, beside
 * it, the network's (ADR 357: an IPv4 /24, an IPv6 /48; LOGIN_NETWORK_RATE_LIMIT). A successful
 * login gives both back, so an office behind one network only ever spends its failures. A browser
 * that logged in as this admin before (`knownDevice`, ADR 317) counts on the client's alone: a
 * stranger's failures in the same network never hold the owner's own browser.
 */
export const loginKeys = (ip: string, knownDevice = false): LimitKeys =>
  knownDevice
    ? [[loginLimiter(), ipKey(ip)]]
    : withNetwork(loginLimiter(), ipKey(ip), ip, "login:net:");
const forgotIpKey = (ip: string) => `forgot:ip:${clientKey(ip)}`;
/**
 * The counters of "Passwort vergessen" (same limiters, every request counts): per client, per
 * network and per client + address.
 */
export const forgotKeys = (ip: string, email: string): LimitKeys => [
  ...withNetwork(loginLimiter(), forgotIpKey(ip), ip, "forgot:net:"),
  [loginLimiter(), `forgot:user:${clientKey(ip)}:${email.toLowerCase()}`],
];

/**
 * Lifts the login lock after a successful password reset or change: the account's per-account
 * counters from every address (login by username, "Passwort vergessen" by e-mail) and the
 * per-address counters of the client that completed it.
 */
export async function clearLoginLock(account: { username: string; email: string }, ip: string) {
  await clearAccountLock(account.username);
  const limiter = loginLimiter();
  limiter.resetMatching("login:user:", `:${account.username.toLowerCase()}`);
  limiter.resetMatching("forgot:user:", `:${account.email.toLowerCase()}`);
  await limiter.reset(ipKey(ip));
  await limiter.reset(forgotIpKey(ip));
}
