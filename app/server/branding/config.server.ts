import type { Logo } from "~/lib/branding";

/**
 * `branding.logo` in a saved configuration (attack29, ADR 293): only the logo upload and removal
 * name a logo (app/server/branding/logo.server.ts). A configuration save — PATCH/PUT
 * /api/configuration, the settings form — keeps the stored one, like a masked webhook secret; a
 * different one is refused (it could name any stored file, e.g. a visitor's attachment).
 */
export const LOGO_READ_ONLY =
  "Das Logo lässt sich nur über den Logo-Upload ändern (PUT /api/admin/branding/logo).";

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function sameLogo(given: unknown, stored: Logo | null): boolean {
  if (given === null || stored === null) return given === stored;
  return isObject(given) && given.hash === stored.hash && given.type === stored.type;
}

/** A `branding.logo` other than the stored one (left out: kept) → its field error. */
export function logoChangeErrors(input: unknown, stored: Logo | null): Record<string, string[]> {
  if (!isObject(input) || !isObject(input.branding) || input.branding.logo === undefined) return {};
  return sameLogo(input.branding.logo, stored) ? {} : { "branding.logo": [LOGO_READ_ONLY] };
}

/** The document with `logo` as its `branding.logo` (a malformed `branding` is left to the schema). */
export function withLogo(input: unknown, logo: Logo | null): unknown {
  if (!isObject(input)) return input;
  if (input.branding !== undefined && !isObject(input.branding)) return input;
  return { ...input, branding: { ...(input.branding ?? {}), logo } };
}
