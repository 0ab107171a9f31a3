import { signedCookie } from "../http/signed-cookie.server";

/**
 * Known devices (ADR 317): a browser an admin logged in with carries a signed, httpOnly cookie
 * naming that admin (the last few admins of this browser). The per-account login lock (ADR 263),
 * which anyone can set off by failing 10 times, never blocks a login from such a browser — the
 * password, the code step and a passkey; the per-client limits still hold. The cookie proves only
 * an earlier successful login: it opens nothing by itself.
 */
const MAX_AGE_SECONDS = 180 * 24 * 3600;
const MAX_ADMINS = 5;
const deviceCookie = signedCookie("__device", MAX_AGE_SECONDS);

/** The admins this browser logged in as before (an unsigned or foreign cookie: none). */
export async function knownAdminIds(request: Request): Promise<ReadonlySet<number>> {
  try {
    const value: unknown = await deviceCookie().parse(request.headers.get("cookie"));
    if (!Array.isArray(value)) return new Set();
    return new Set(value.filter((id): id is number => Number.isSafeInteger(id) && id > 0));
  } catch {
    return new Set();
  }
}

/** The cookie of a successful login: this admin first, then the others the browser knew. */
export async function knownDeviceCookie(request: Request, adminId: number): Promise<string> {
  const known = [...(await knownAdminIds(request))].filter((id) => id !== adminId);
  return deviceCookie().serialize([adminId, ...known].slice(0, MAX_ADMINS));
}
