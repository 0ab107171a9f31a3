// Serves the bare page (tests/bench/bare, built into build-bench-bare/) with the app's Express stack
// (server/app.ts) minus what is the app's own: per-response CSP nonce, helmet, compression, static
// files, the same request adapter (server/handler.ts). Used by `npm run bench:landing`.
import { randomBytes } from "node:crypto";
import path from "node:path";
import compression from "compression";
import express from "express";
import helmet from "helmet";
import { RouterContextProvider, type ServerBuild } from "react-router";
import { createRequestHandler } from "../../../server/handler.ts";

const BUILD = path.resolve(import.meta.dirname, "../../../build-bench-bare");
const build = (await import(path.join(BUILD, "server/index.js"))) as ServerBuild;
const { nonceContext } = build.entry.module as unknown as {
  nonceContext: Parameters<RouterContextProvider["set"]>[0];
};

const app = express();
app.disable("x-powered-by");
app.use((_req, res, next) => {
  res.locals.cspNonce = randomBytes(16).toString("base64");
  next();
});
app.use(
  helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": [
          "'self'",
          (_req, res) => `'nonce-${(res as express.Response).locals.cspNonce}'`,
        ],
      },
    },
    crossOriginEmbedderPolicy: false,
  }),
);
app.use(compression());
app.use(
  "/assets",
  express.static(path.join(BUILD, "client/assets"), {
    immutable: true,
    maxAge: "1y",
    index: false,
  }),
);
app.use(express.static(path.join(BUILD, "client"), { maxAge: "1h", index: false }));
app.all(
  "/{*splat}",
  createRequestHandler({
    build,
    mode: "production",
    getLoadContext(_req, res) {
      const context = new RouterContextProvider();
      context.set(nonceContext, res.locals.cspNonce as string);
      return context;
    },
  }),
);
app.listen(Number(process.env.PORT ?? 4811), process.env.HOST ?? "127.0.0.1");
