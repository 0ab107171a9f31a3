import { randomUUID } from "node:crypto";
import path from "node:path";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { pinoHttp } from "pino-http";
import { RouterContextProvider, type ServerBuild } from "react-router";
import type { TestHooks } from "../app/server/platform/test-hooks.server.ts";
import type { fastLanding } from "../app/server/rendering/landing-fast-path.server.ts";
import { bodyIntake, type IntakeStats } from "./body-intake.ts";
import { BODY_DEADLINE_SECONDS, BODY_PACE } from "./body-pace.ts";
import {
  type ConcurrencyStats,
  clientAddress,
  concurrencyLimit,
  REQUEST_QUEUE_MAX,
} from "./concurrency.ts";
import { cspNonce } from "./csp-nonce.ts";
import { bodyGuard, type GuardOptions, originGuard, requestLineGuard } from "./guards.ts";
import { createRequestHandler } from "./handler.ts";
import { landingFastPath } from "./landing-fast-path.ts";
import { logger } from "./logger.ts";
import { concurrencyMetrics, httpMetrics } from "./metrics.ts";
import { routeMatcher } from "./route-match.ts";

/** What entry.server.tsx exports besides the renderer (see app/entry.server.tsx). */
export type EntryExtras = {
  requestContext: Parameters<RouterContextProvider["set"]>[0];
  boot: () => Promise<BootResult>;
  /** The validated configuration (env), without opening the database. */
  config: () => BootResult["env"] & { DATABASE_PATH: string };
  /** The absolute cap on a multipart body (configured total upload limit + allowance). */
  multipartCap: () => number;
  /** Flushes and probes for the tests, nothing else calls them (app/server/platform/test-hooks.server.ts). */
  testHooks: TestHooks;
  /** The one client identity of every limit (app/lib/client-key.ts: IPv6 by its /56, ADR 254). */
  clientKey: (ip: string) => string;
  /** The client's network (IPv4 /24, IPv6 /48, ADR 321). */
  networkKey: (ip: string) => string;
  /** The framed contact form (ADR 283): its paths, and who may frame it now (configuration). */
  isEmbedPath: (pathname: string) => boolean;
  embedFrameSources: () => string[];
  /** A first visit to `/` answered before React Router, or the stamp for it (ADR 300). */
  fastLanding: typeof fastLanding;
};
export type BootResult = {
  env: {
    PORT: number;
    HOST: string;
    NODE_ENV: string;
    TRUST_PROXY: string;
    APP_URL: string;
    GA_MEASUREMENT_ID?: string;
    METRICS_PORT?: number;
    METRICS_HOST?: string;
    MAX_CONCURRENT_REQUESTS?: number;
    MAX_UPLOADS_PER_NETWORK?: number;
    BODY_DEADLINE_SECONDS?: number;
  };
  shutdown: () => Promise<void>;
};

/** The request bound's state (tests: `server.requestStats()`). */
export type RequestStats = ConcurrencyStats & { intake: IntakeStats };

const ROOT = path.resolve(import.meta.dirname, "..");
/** Route patterns (app/routes.ts) whose files are sent as they are stored. */
const UNCOMPRESSED_ROUTES = new Set(["/api/audio/*", "/api/uploads/:filename"]);
const BUILD = path.resolve(ROOT, process.env.BUILD_DIR ?? "build");

/** Development (server/dev.ts): Vite serves the client files, the server build is loaded per request. */
export type DevServer = {
  middlewares: express.RequestHandler;
  loadBuild: () => Promise<ServerBuild>;
};

const extrasOf = (build: ServerBuild) => build.entry.module as unknown as EntryExtras;

/**
 * The Express app around the React Router build: headers, compression, static files, handler.
 * `npm start` and `npm run dev` both serve through it, so development has the same headers.
 */
export function createApp(
  build: ServerBuild,
  boot: Pick<BootResult, "env">,
  dev?: DevServer,
  /** In front of the app while it starts (server/startup.ts): /healthz 200, the rest 503. */
  gate?: express.RequestHandler,
) {
  const extras = extrasOf(build);
  const production = boot.env.NODE_ENV === "production";
  const ga = Boolean(boot.env.GA_MEASUREMENT_ID);
  // HSTS and upgrade-insecure-requests only where the app is really served over HTTPS.
  const https = production && boot.env.APP_URL.startsWith("https://");
  const app = express();
  app.disable("x-powered-by");
  app.set("trust proxy", false);
  // Before anything parses the Host header or the URL (the adapter would answer 500).
  app.use(requestLineGuard);

  const match = routeMatcher(build.routes);
  app.use(requestLogger(match, boot.env.TRUST_PROXY === "fly"));
  app.use(httpMetrics(match));
  if (gate) app.use(gate);
  const trustFly = boot.env.TRUST_PROXY === "fly";
  // One client = one IPv4 address or IPv6 /56 (ADR 254); its network an IPv4 /24 or IPv6 /48.
  const clientOf = (req: express.Request) => extras.clientKey(clientAddress(req, trustFly));
  const networkOf = (req: express.Request) => extras.networkKey(clientAddress(req, trustFly));
  // Every body keeps the minimum pace and a total deadline (ADR 321).
  const pace = {
    ...BODY_PACE,
    deadlineMs: (boot.env.BODY_DEADLINE_SECONDS ?? BODY_DEADLINE_SECONDS) * 1000,
  };
  // Small bodies are read before a slot is taken (ADR 321): a trickling client holds no slot.
  const intake = bodyIntake({ clientOf, networkOf, pace });
  app.use(intake);
  // At most this many requests in work at once, the rest wait (memory on a 256 MB machine, ADR 195).
  const limiter = concurrencyLimit({
    limit: boot.env.MAX_CONCURRENT_REQUESTS ?? 0,
    queue: REQUEST_QUEUE_MAX,
    // A connection holds one slot, an answer nobody reads ends its connection, free slots go
    // round robin over networks and clients (ADR 321, second amendment). A client waits with at
    // most half the queue (ADR 197) and two handed-on small bodies; uploads have no cap of their
    // own (one client's many parallel submissions wait their turn instead of a 429).
    perClientUploadQueue: Math.floor(REQUEST_QUEUE_MAX / 2),
    // One client holds at most a quarter of the slots (ADR 197), one network at most half, and
    // requests whose bodies are still on their way at most half, one network's uploads a quarter of
    // those; small bodies that did not fit the read-ahead budget have their own quarter, which
    // uploads cannot take (ADR 321).
    perNetworkTransit: boot.env.MAX_UPLOADS_PER_NETWORK,
    clientOf,
    networkOf,
    smallInTransit: (_req, res) => res.locals.smallInTransit === true,
    inTransit: (req, res) =>
      !res.locals.readAhead &&
      req.method !== "GET" &&
      req.method !== "HEAD" &&
      (req.headers["transfer-encoding"] !== undefined ||
        Number(req.headers["content-length"] ?? "0") > 0),
    // The health check never waits (Fly must see a busy machine alive), nor do the built assets:
    // files streamed from disk, cheap, and a page's scripts must not queue behind its own HTML.
    bypass: (req) => req.path === "/healthz" || isAssetRequest(req),
  });
  concurrencyMetrics(() => ({ ...limiter.stats(), readAheadBytes: intake.stats().bytes }));
  app.use(limiter);
  app.locals.requestStats = (): RequestStats => ({ ...limiter.stats(), intake: intake.stats() });
  app.use((req, res, next) => {
    res.locals.cspNonce = cspNonce();
    // Only /embed may be framed, and only by the configured websites (ADR 283).
    res.locals.embed = extras.isEmbedPath(req.path);
    next();
  });
  app.use(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          "default-src": ["'self'"],
          "base-uri": ["'self'"],
          "form-action": ["'self'"],
          "frame-ancestors": [
            (_req, res) => {
              const locals = (res as express.Response).locals;
              return locals.embed ? extras.embedFrameSources().join(" ") : "'none'";
            },
          ],
          "object-src": ["'none'"],
          "img-src": [
            "'self'",
            "data:",
            "blob:",
            ...(ga ? ["https://*.google-analytics.com"] : []),
          ],
          "media-src": ["'self'", "blob:"],
          "style-src": ["'self'", "'unsafe-inline'"],
          "script-src": [
            "'self'",
            (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
            ...(ga ? ["https://www.googletagmanager.com"] : []),
          ],
          "connect-src": [
            "'self'",
            ...(production ? [] : ["ws:"]),
            ...(ga ? ["https://*.google-analytics.com", "https://*.analytics.google.com"] : []),
          ],
          "upgrade-insecure-requests": https ? [] : null,
        },
      },
      strictTransportSecurity: https ? { maxAge: 63072000, includeSubDomains: true } : false,
      referrerPolicy: { policy: "strict-origin-when-cross-origin" },
      crossOriginEmbedderPolicy: false,
      // Set below: every page but /embed keeps it (frame-ancestors is the rule, this the fallback).
      xFrameOptions: false,
    }),
  );
  app.use((_req, res, next) => {
    if (!res.locals.embed) res.setHeader("X-Frame-Options", "SAMEORIGIN");
    res.setHeader("Permissions-Policy", "camera=(), geolocation=(), microphone=(self)");
    next();
  });
  const guards: GuardOptions = {
    appUrl: boot.env.APP_URL,
    trustProxy: boot.env.TRUST_PROXY,
    multipartCap: extras.multipartCap,
    bodyPace: pace,
  };
  app.use(originGuard(guards));
  app.use(bodyGuard(guards));
  // Audio and uploads stream large bodies themselves (with ranges); everything else is compressed.
  // Decided by the route React Router will run, so no spelling of their paths is compressed.
  app.use(
    compression({
      filter: (req, res) =>
        compression.filter(req, res) && !UNCOMPRESSED_ROUTES.has(match(req.originalUrl).pattern),
    }),
  );

  if (dev) app.use(dev.middlewares);
  else {
    app.use(
      "/assets",
      express.static(path.join(BUILD, "client/assets"), {
        immutable: true,
        maxAge: "1y",
        index: false,
      }),
      // A dead end: nothing under /assets reaches the router (`/assets/../admin/login` would, past
      // the request bound's bypass).
      (_req: express.Request, res: express.Response) => {
        res.status(404).type("text/plain; charset=utf-8").send("Nicht gefunden.");
      },
    );
    // The files of public/ (favicon.svg, robots.txt) all have an extension: page paths skip the
    // file-system lookup (a stat and a 404 error object per page request).
    const publicFiles = express.static(path.join(BUILD, "client"), {
      maxAge: "1h",
      index: false,
      setHeaders(res, file) {
        // The embed script (ADR 283) is loaded by other websites: versioned by `?v=` in the
        // snippet, so it may be cached a week, and no same-origin resource policy.
        if (path.basename(file) !== "embed.js") return;
        res.setHeader("Cache-Control", "public, max-age=604800");
        res.setHeader("Cross-Origin-Resource-Policy", "cross-origin");
      },
    });
    app.use((req, res, next) => (path.extname(req.path) ? publicFiles(req, res, next) : next()));
    // A first visit to `/` from the kept page, without React Router (ADR 300).
    app.use(landingFastPath(extras));
  }

  app.all(
    "/{*splat}",
    createRequestHandler({
      build: dev ? dev.loadBuild : build,
      mode: production ? "production" : "development",
      getLoadContext(req, res, current) {
        const context = new RouterContextProvider();
        context.set(extrasOf(current).requestContext, {
          nonce: res.locals.cspNonce as string,
          clientIp: clientAddress(req, trustFly) || "unknown",
          landingStamp: res.locals.landingStamp,
        });
        return context;
      },
    }),
  );
  return app;
}

/**
 * One JSON line per request (ADR 095): request id (also sent back as X-Request-Id), method, the matched
 * route's pattern and id (never the raw path or the query string), status and duration in ms.
 */
function requestLogger(match: ReturnType<typeof routeMatcher>, trustFly: boolean) {
  const line = (req: express.Request, res: express.Response, durationMs: number) => {
    const route = match(req.originalUrl);
    return {
      method: req.method,
      route: route.pattern,
      routeId: route.id,
      status: res.statusCode,
      durationMs,
    };
  };
  return pinoHttp({
    logger,
    quietReqLogger: true,
    quietResLogger: true,
    genReqId(req, res) {
      // Fly's own request id (set by its proxy) when behind Fly; never an id a client chose.
      const fly = trustFly ? req.headers["fly-request-id"] : undefined;
      const id = typeof fly === "string" && /^[A-Za-z0-9-]{8,80}$/.test(fly) ? fly : randomUUID();
      res.setHeader("X-Request-Id", id);
      return id;
    },
    // The startup gate's 503 (server/startup.ts) is the plan, not a failure: info, without an error.
    customLogLevel: (_req, res, error) =>
      (error || res.statusCode >= 500) && !startingUp(res) ? "error" : "info",
    customSuccessMessage: () => "request",
    customErrorMessage: (_req, res) => (startingUp(res) ? "request" : "request failed"),
    customSuccessObject: (req, res, value: { responseTime: number }) =>
      line(req as express.Request, res as express.Response, value.responseTime),
    customErrorObject: (req, res, error, value: { responseTime: number }) => ({
      ...line(req as express.Request, res as express.Response, value.responseTime),
      ...(startingUp(res) ? {} : { err: error }),
    }),
  });
}

function startingUp(res: unknown): boolean {
  return (res as express.Response).locals?.startupGate === true;
}

/** Imports the production build without booting it. */
export async function importBuild(): Promise<{ build: ServerBuild; extras: EntryExtras }> {
  const build = (await import(path.join(BUILD, "server/index.js"))) as ServerBuild;
  return { build, extras: extrasOf(build) };
}

/** Loads the production build, runs the boot tasks (env, database, first admin, workers). */
export async function loadBuild(): Promise<{ build: ServerBuild; boot: BootResult }> {
  const { build, extras } = await importBuild();
  return { build, boot: await extras.boot() };
}

/**
 * A GET or HEAD of a built asset, which the request bound lets through (ADR 197): no dot segment,
 * encoded slash or backslash in the path, so it can only ever be answered by the static files.
 */
export function isAssetRequest(req: express.Request): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  const pathname = req.path;
  return pathname.startsWith("/assets/") && !/(^|\/)\.|%2e|%2f|%5c|\\/i.test(pathname.slice(8));
}
