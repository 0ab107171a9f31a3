/**
 * Where Google Analytics' script comes from once a visitor consented (the cookie bar loads it, the
 * e2e browser resolves its host to nothing: scripts/chromium.ts).
 */
export const GTAG_ORIGIN = "https://www.googletagmanager.com";
