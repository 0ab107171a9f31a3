import type { Configuration } from "~/lib/configuration";
import type { BusyFeed } from "~/lib/team-calendar";
import { isMaskedUrl, maskUrl } from "~/lib/webhooks";
import { isSealed, openBody, sealBody } from "../mail/secrets.server";
import { refusedUrl } from "../webhooks/address.server";

/**
 * The busy-feed URLs are secrets (whoever has one reads the team's calendar): sealed at rest like
 * webhook secrets (AES-256-GCM, ADR 142), masked whenever they leave the server, and a masked or
 * omitted URL of a known feed keeps the stored one.
 */
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Before validation: a masked URL of a known feed id becomes the stored (sealed) value. */
export function withStoredFeedUrls(input: unknown, stored: BusyFeed[]): unknown {
  if (!isObject(input) || !isObject(input.teamCalendar)) return input;
  const feeds = input.teamCalendar.busyFeeds;
  if (!Array.isArray(feeds)) return input;
  const byId = new Map(stored.map((f) => [f.id, f]));
  return {
    ...input,
    teamCalendar: {
      ...input.teamCalendar,
      busyFeeds: feeds.map((raw) => {
        if (!isObject(raw)) return raw;
        const known = typeof raw.id === "string" ? byId.get(raw.id) : undefined;
        const keep = raw.url === undefined || raw.url === "" || isMaskedUrl(raw.url);
        if (known && (keep || raw.url === known.url)) return { ...raw, url: known.url };
        // A sealed value is only accepted when it is exactly the stored one.
        if (typeof raw.url === "string" && isSealed(raw.url)) return { ...raw, url: "" };
        return raw;
      }),
    },
  };
}

/** The plain URL of a feed (null when SESSION_SECRET changed and it cannot be opened). */
export const feedUrl = (feed: BusyFeed) => openBody(feed.url);

/** After validation: the webhooks' SSRF rules (https, public hosts under a public APP_URL). */
export function feedTargetErrors(config: Configuration): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  config.teamCalendar.busyFeeds.forEach((feed, i) => {
    const plain = feedUrl(feed);
    const refused =
      plain === null ? "Adresse nicht entschlüsselbar – bitte neu eingeben." : refusedUrl(plain);
    if (refused) errors[`teamCalendar.busyFeeds.${i}.url`] = [refused];
  });
  return errors;
}

/** What is stored: every feed URL sealed. */
export const sealFeedUrls = (config: Configuration): Configuration => ({
  ...config,
  teamCalendar: {
    ...config.teamCalendar,
    busyFeeds: config.teamCalendar.busyFeeds.map((f) => ({
      ...f,
      url: isSealed(f.url) ? f.url : sealBody(f.url),
    })),
  },
});

/** A feed URL for display: scheme, host and its last four characters. */
export const maskedFeedUrl = (feed: BusyFeed) => {
  const plain = feedUrl(feed);
  return plain === null ? "•••••••• (nicht entschlüsselbar)" : maskUrl(plain);
};

/** What leaves the server (API, settings page): feed URLs masked. */
export const maskFeedUrls = (config: Configuration): Configuration => ({
  ...config,
  teamCalendar: {
    ...config.teamCalendar,
    busyFeeds: config.teamCalendar.busyFeeds.map((f) => ({ ...f, url: maskedFeedUrl(f) })),
  },
});
