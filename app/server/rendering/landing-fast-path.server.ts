import type { Configuration } from "~/lib/configuration";
import { formatYear } from "~/lib/format";
import { getConfiguration } from "../configuration/configuration.server";
import { registerTestHooks } from "../platform/test-hooks.server";
import { cachedPageBody, type PageHeaderPairs } from "./render-cache.server";
import { acceptsGzip } from "./render-cache-gzip.server";

/**
 * The landing fast path (ADR 300): a first visit's `GET /` (no query, no Cookie, no Referer — the
 * request carries nothing the loaders read) is answered from the render cache before React Router,
 * when the page the last such request was served is still kept and nothing it was rendered from
 * changed. For such a request the loader data of `/` is a function of the configuration, the year
 * (the footer) and the process (build, env), so the stamp below holds exactly those: the parsed
 * configuration object (a new object after this process's save or another connection's commit,
 * `PRAGMA data_version`: app/server/configuration/configuration.server.ts) and the Berlin year. Any other
 * request, or a changed stamp, takes React Router's path, which remembers its page again.
 * The server side (server/landing-fast-path.ts) decides which requests qualify and writes the answer.
 */

export type LandingStamp = { configuration: Configuration; year: string };

/** What the loaders of a first visit read, taken before they run. */
export function landingStamp(): LandingStamp {
  return { configuration: getConfiguration(), year: formatYear(Date.now()) };
}

type Remembered = { stamp: LandingStamp; key: string; headers: PageHeaderPairs };
let remembered: Remembered | undefined;
const counts = { fast: 0, remembered: 0 };

/**
 * Called by the render cache when a qualifying request (stamp taken before its loaders ran) was
 * served a kept page. A page whose headers set a cookie is never answered without the loaders.
 */
export function rememberLanding(stamp: LandingStamp, key: string, headers: PageHeaderPairs) {
  if (headers.identity.some(([name]) => name === "set-cookie")) {
    remembered = undefined;
    return;
  }
  remembered = { stamp, key, headers };
  counts.remembered++;
}

/** `release`: call once the body's write is done (its buffer is reused, ADR 300). */
export type FastLanding = { headers: [string, string][]; body: Buffer; release?: () => void };

/**
 * The answer for a qualifying request with `nonce` (its CSP header's), or, when there is none, the
 * stamp to hand to React Router's path (request context `landingStamp`).
 */
export function fastLanding(
  nonce: string,
  acceptEncoding: string | undefined,
): FastLanding | LandingStamp {
  const stamp = landingStamp();
  const last = remembered;
  if (
    !last ||
    last.stamp.configuration !== stamp.configuration ||
    last.stamp.year !== stamp.year ||
    !nonce
  ) {
    return stamp;
  }
  const gzip = acceptsGzip(acceptEncoding ?? null);
  const page = cachedPageBody(last.key, nonce, gzip);
  if (!page) {
    remembered = undefined;
    return stamp;
  }
  counts.fast++;
  return { headers: gzip ? last.headers.gzip : last.headers.identity, ...page };
}

/** For tests: first visits answered before React Router, pages remembered for it. */
registerTestHooks({ landingFastPathStats: () => ({ ...counts }) });
