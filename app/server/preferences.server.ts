import { createCookie } from "react-router";

export type Theme = "light" | "dark";

const ONE_YEAR = 365 * 24 * 3600;
/** Not httpOnly-sensitive data, but kept httpOnly anyway: the server renders the class before paint. */
export const themeCookie = createCookie("theme", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: ONE_YEAR,
});

export async function readTheme(request: Request): Promise<Theme> {
  const value = await themeCookie.parse(request.headers.get("cookie"));
  return value === "dark" ? "dark" : "light";
}

/** The spec's consent record (§3): necessary is always true; defaults to all denied. */
export type ConsentRecord = {
  necessary: true;
  analytics: boolean;
  marketing: boolean;
  timestamp: string;
  bannerShown: boolean;
};

export const consentCookie = createCookie("cookie_consent", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: ONE_YEAR,
});

/** The stored consent choice, or null while the visitor has not chosen yet (the bar shows). */
export async function readConsent(request: Request): Promise<ConsentRecord | null> {
  const value = await consentCookie.parse(request.headers.get("cookie"));
  if (!value || typeof value !== "object") return null;
  return {
    necessary: true,
    analytics: value.analytics === true,
    marketing: value.marketing === true,
    timestamp: typeof value.timestamp === "string" ? value.timestamp : new Date(0).toISOString(),
    bannerShown: false,
  };
}

export function consentRecord(analytics: boolean, marketing: boolean): ConsentRecord {
  return {
    necessary: true,
    analytics,
    marketing,
    timestamp: new Date().toISOString(),
    bannerShown: false,
  };
}

/** Closed info banners, keyed by a hash of their text (a new text shows again). */
export const dismissedBannersCookie = createCookie("dismissed_banners", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: ONE_YEAR,
});

export async function readDismissedBanners(request: Request): Promise<string[]> {
  const value = await dismissedBannersCookie.parse(request.headers.get("cookie"));
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** Short, stable key of a banner text (FNV-1a, hex); isomorphic so the client can compute it too. */
export { bannerKey } from "~/lib/banner-key";

/** Same-site relative path to return to after a preference form post (no JS). */
export function backTo(value: FormDataEntryValue | null, fallback = "/"): string {
  if (
    typeof value !== "string" ||
    !value.startsWith("/") ||
    value.startsWith("//") ||
    value.startsWith("/\\")
  )
    return fallback;
  return value;
}
