import { createCookie } from "react-router";
import type { ThemeChoice } from "~/lib/brand";

export type Theme = "light" | "dark";

const ONE_YEAR = 365 * 24 * 3600;
/** Not httpOnly-sensitive data, but kept httpOnly anyway: the server renders the class before paint. */
export const themeCookie = createCookie("theme", {
  path: "/",
  sameSite: "lax",
  httpOnly: true,
  maxAge: ONE_YEAR,
});

/** The stored choice; "system" while none is stored (the OS preference applies, by CSS). */
export async function readTheme(request: Request): Promise<ThemeChoice> {
  const value = await themeCookie.parse(request.headers.get("cookie"));
  return value === "dark" || value === "light" ? value : "system";
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

/**
 * Set-Cookie values that delete every Google Analytics cookie (`_ga`, `_ga_<id>`, `_gid`, `_gat*`)
 * the request carries: host-only, on the host and on its parent domain (gtag's "auto" domain).
 */
export function expireAnalyticsCookies(request: Request): string[] {
  const names = (request.headers.get("cookie") ?? "")
    .split(";")
    .map((part) => part.split("=")[0]?.trim() ?? "")
    .filter((name) => /^(_ga(_[A-Za-z0-9]+)?|_gid|_gat(_[A-Za-z0-9]+)?)$/.test(name));
  if (!names.length) return [];
  const host = new URL(request.url).hostname;
  const domains: (string | null)[] = [null];
  if (!/^[\d.]+$/.test(host) && host.includes(".")) {
    domains.push(host);
    const labels = host.split(".");
    if (labels.length > 2) domains.push(labels.slice(-2).join("."));
  }
  const expired = "Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/; SameSite=Lax";
  return [...new Set(names)].flatMap((name) =>
    domains.map((domain) => `${name}=; ${expired}${domain ? `; Domain=${domain}` : ""}`),
  );
}

/** The admin list's density (ADR 236): "compact" shows one line per request. */
export type ListDensity = "comfortable" | "compact";

export const listDensityCookie = createCookie("list_density", {
  path: "/admin",
  sameSite: "lax",
  httpOnly: true,
  maxAge: ONE_YEAR,
});

export async function readListDensity(request: Request): Promise<ListDensity> {
  const value = await listDensityCookie.parse(request.headers.get("cookie"));
  return value === "compact" ? "compact" : "comfortable";
}
