import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import {
  type EntryContext,
  isRouteErrorResponse,
  type RouterContextProvider,
  ServerRouter,
} from "react-router";
import { NonceProvider } from "./components/nonce";
import { requestContext } from "./server/http/request-context.server";
import { rememberLanding } from "./server/rendering/landing-fast-path.server";
import { renderWithCache } from "./server/rendering/render-cache.server";

export { clientKey, networkKey } from "./lib/client-key";
// `npm run admin:reset-password` (scripts/admin-reset-password.ts) calls it on the built server.
export { issueResetLink } from "./server/accounts/reset-link.server";
// `npm run admin:reset-2fa` (scripts/admin-reset-2fa.ts) calls it on the built server.
export { resetTwoFactor } from "./server/accounts/two-factor/two-factor.server";
export { boot } from "./server/boot.server";
// The CSP of the framed contact form (server/app.ts, ADR 283).
export { embedFrameSources, isEmbedPath } from "./server/embed/embed.server";
// server/index.ts reads the configuration before the boot: it listens first (ADR 277).
export { env as config } from "./server/platform/env.server";
// The one set of test hooks (flushes, probes), the instance the server runs: tests/integration/server.ts.
export { testHooks } from "./server/platform/test-hooks.server";
// A first visit to `/` answered before React Router (server/landing-fast-path.ts, ADR 300).
export { fastLanding } from "./server/rendering/landing-fast-path.server";
export { multipartCap } from "./server/uploads/parse.server";
export { requestContext };

export const streamTimeout = 5_000;

/** Client errors (405 for a POST without an action, 404, ...) are answers, not server faults. */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const { nonce: given, landingStamp } = loadContext.get(requestContext);
  const nonce = given || undefined;
  // The landing page is served from the render cache when nothing it renders changed (ADR 160).
  return renderWithCache(
    {
      request,
      statusCode: responseStatusCode,
      headers: responseHeaders,
      context: routerContext,
      nonce,
      // A first visit to `/`: the fast path answers the next ones from this page (ADR 300).
      remember: landingStamp
        ? (key, headers) => rememberLanding(landingStamp, key, headers)
        : undefined,
    },
    (renderNonce, allReady) =>
      render(request, responseStatusCode, responseHeaders, routerContext, renderNonce, allReady),
  );
}

function render(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  nonce: string | undefined,
  allReady: boolean,
) {
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    const readyOption: keyof RenderToPipeableStreamOptions =
      allReady || (userAgent && isbot(userAgent)) || routerContext.isSpaMode
        ? "onAllReady"
        : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        // Never outline a finished Suspense boundary into a hidden chunk that a script reveals
        // (React 19.2+ does so past 12,800 bytes): every page must read complete without JavaScript.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
