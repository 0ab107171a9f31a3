import { createCookie } from "react-router";
import {
  type Attribution,
  attributionFromVisit,
  attributionOf,
  cleanAttribution,
  hasAttribution,
  withCarriedReferrer,
} from "~/lib/attribution";
import { env, isProduction } from "../platform/env.server";
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
 * A client-side navigation or revalidation (`/_.data`, `/page.data`): no document the visitor
 * landed on. Its URL and Referer (our own page) say nothing about where the visitor came from.
 */
export const isDataRequest = (request: Request) => new URL(request.url).pathname.endsWith(".data");

/**
 * The attribution the landing page renders into the contact form, for this request only: the
 * remembered first touch when the visitor consented to analytics and has one, else this visit's.
 * `setCookie` is the first-touch cookie to set (consent given, none remembered yet). A data request
 * has none (null) and sets nothing: the page keeps what its document was rendered with (ADR 215).
 */
export async function landingAttribution(
  request: Request,
  consent: ConsentRecord | null,
): Promise<{ attribution: Attribution | null; setCookie: string | null }> {
  if (isDataRequest(request)) return { attribution: null, setCookie: null };
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

/**
 * The first-touch cookie for a consent given on the landing page: the attribution of the landing
 * document, posted by the consent form as the contact form's hidden fields (the request of the
 * consent itself is a form post from our own page). Null when one is remembered already or nothing
 * was posted.
 */
export async function firstTouchFromConsentForm(
  request: Request,
  form: FormData,
): Promise<string | null> {
  const stored = cleanAttribution(await firstTouchCookie().parse(request.headers.get("cookie")));
  if (hasAttribution(stored)) return null;
  const posted = attributionOf(Object.fromEntries(form));
  return hasAttribution(posted) ? firstTouchCookie().serialize(posted) : null;
}

/**
 * Where a no-JS post on the landing page redirects to: its `redirectTo`, carrying the landing
 * document's external referrer (the posted `referrer`) in the URL, as the next page's Referer is
 * our own page. Nothing is stored on the device for it.
 */
export function redirectCarryingReferrer(path: string, request: Request, form: FormData): string {
  return withCarriedReferrer(path, form.get("referrer"), [
    new URL(request.url).host,
    ...ownHosts(),
  ]);
}

/** Set-Cookie that deletes the first-touch cookie (analytics consent withdrawn or refused). */
export function expireFirstTouchCookie(request: Request): string[] {
  if (!/(?:^|;\s*)first_touch=/.test(request.headers.get("cookie") ?? "")) return [];
  return ["first_touch=; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; SameSite=Lax"];
}
