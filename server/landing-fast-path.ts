import type express from "express";
import type { fastLanding } from "../app/server/rendering/landing-fast-path.server.ts";

/**
 * A first visit to the landing page answered before React Router (ADR 300): `GET /` with no query,
 * no Cookie and no Referer — nothing the loaders of `/` read beyond the configuration and the year
 * — gets the kept page of the last such request when nothing it was rendered from changed
 * (app/server/rendering/landing-fast-path.server.ts). Written as server/handler.ts writes React Router's
 * answer (status, the same header pairs, the body in one write, flushed), after the same
 * middleware (request id, access log, metrics, request bound, CSP with this response's nonce,
 * security headers), so only the work in between is saved. Every other request, and a first
 * visit the fast path cannot answer, goes on to React Router with the stamp of what its loaders
 * read (`res.locals.landingStamp`, then the request context), from which the page is remembered.
 */
export function landingFastPath(extras: {
  fastLanding: typeof fastLanding;
}): express.RequestHandler {
  return (req, res, next) => {
    if (
      req.method !== "GET" ||
      req.originalUrl !== "/" ||
      req.headers.cookie !== undefined ||
      req.headers.referer !== undefined
    ) {
      return next();
    }
    const answer = extras.fastLanding(
      res.locals.cspNonce as string,
      req.headers["accept-encoding"],
    );
    if (!("body" in answer)) {
      res.locals.landingStamp = answer;
      return next();
    }
    // As server/handler.ts: a response already gone (or answered) gets nothing more.
    if (res.destroyed || res.writableEnded || res.headersSent) return;
    res.statusMessage = "";
    res.status(200);
    for (const [name, value] of answer.headers) res.append(name, value);
    // The buffer is reused once this write is done (never when it failed, nor when the
    // compression middleware took it: that one drops the callback).
    res.write(answer.body, (error) => {
      if (!error) answer.release?.();
    });
    // The compression middleware's flush, as @react-router/node's stream writer calls it.
    (res as express.Response & { flush?: () => void }).flush?.();
    res.end();
  };
}
