import { createCookie } from "react-router";
import {
  type Attribution,
  attributionFromVisit,
  cleanAttribution,
  hasAttribution,
} from "~/lib/attribution";
import { env, isProduction } from "./env.server";
import type { ConsentRecord } from "./preferences.server";

const NINETY_DAYS = 90 * 24 * 3600;

/**
 * The first-touch attribution, remembered across visits. Set only with analytics consent (TDDDG
 * §25: it is not necessary for the service), deleted when that consent is withdrawn.
 */
let cookie: ReturnType<typeof createCookie> | undefined;
export function firstTouchCookie() {
  cookie ??= createCookie("first_touch", {
    path: "/",
    sameSite: "lax",
    httpOnly: true,
    secure: isProduction() && env().APP_URL.startsWith("https://"),
    maxAge: NINETY_DAYS,
  });
  return cookie;
}

function ownHosts(): string[] {
  try {
    return [new URL(env().APP_URL).host];
  } catch {
    return [];
  }
}

/**
 * The attribution the landing page renders into the contact form, for this request only: the
 * remembered first touch when the visitor consented to analytics and has one, else this visit's.
 * `setCookie` is the first-touch cookie to set (consent given, none remembered yet).
 */
export async function landingAttribution(
  request: Request,
  consent: ConsentRecord | null,
): Promise<{ attribution: Attribution; setCookie: string | null }> {
  const visit = attributionFromVisit(
    new URL(request.url),
    request.headers.get("referer"),
    ownHosts(),
  );
  if (!consent?.analytics) return { attribution: visit, setCookie: null };
  // A malformed value parses as {} (or junk): only a first touch with content counts as remembered.
  const stored = cleanAttribution(await firstTouchCookie().parse(request.headers.get("cookie")));
  if (hasAttribution(stored)) return { attribution: stored, setCookie: null };
  return { attribution: visit, setCookie: await firstTouchCookie().serialize(visit) };
}

/** Set-Cookie that deletes the first-touch cookie (analytics consent withdrawn or refused). */
export function expireFirstTouchCookie(request: Request): string[] {
  if (!/(?:^|;\s*)first_touch=/.test(request.headers.get("cookie") ?? "")) return [];
  return ["first_touch=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; SameSite=Lax"];
}
