import type { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import type { NextFunction, Request, Response } from "express";
import {
  createRequestHandler as createRouterHandler,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";
import { releaseSlot } from "./concurrency.ts";
import { writeCoalesced } from "./response-writer.ts";

/**
 * The mark of a stored file's answer (app/server/http/file-response.server.ts sets it): never sent
 * to the client; the answer gives its request slot back before its body is sent.
 */
export const STREAMED_FILE = "x-anfrage-streamed-file";

/**
 * @react-router/express's adapter with two changes: the request body is the byte-capped stream of
 * server/guards.ts (`res.locals.body`), not the raw socket, so no route can read past the cap; the
 * response body is written in as few pieces as its stream allows (server/response-writer.ts).
 * `build` is the production build, or (development) a function that loads the current one from Vite.
 */
export function createRequestHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: string;
  getLoadContext: (req: Request, res: Response, build: ServerBuild) => RouterContextProvider;
}) {
  const fixed = typeof options.build === "function" ? null : options.build;
  const handleFixed = fixed ? createRouterHandler(fixed, options.mode) : null;
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const build = fixed ?? (await (options.build as () => Promise<ServerBuild>)());
      const handle = handleFixed ?? createRouterHandler(build, options.mode);
      const response = await handle(
        toFetchRequest(req, res),
        options.getLoadContext(req, res, build),
      );
      await send(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function toFetchRequest(req: Request, res: Response): globalThis.Request {
  const [, portText] = req.get("host")?.split(":") ?? [];
  const port = Number.parseInt(portText, 10);
  const host = `${req.hostname?.split(/[\\/?#@]/)[0] || "localhost"}${Number.isSafeInteger(port) ? `:${port}` : ""}`;
  const url = new URL(`${req.protocol}://${host}${req.originalUrl}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value) headers.set(key, value);
  }
  let controller: AbortController | null = new AbortController();
  const signal = controller.signal;
  res.on("finish", () => {
    controller = null;
  });
  res.on("close", () => controller?.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    const source = (res.locals.body as Readable | undefined) ?? req;
    init.body = createReadableStreamFromReadable(source);
    init.duplex = "half";
  }
  return new Request(url.href, init);
}

async function send(res: Response, response: globalThis.Response) {
  if (res.destroyed || res.writableEnded || res.headersSent) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) {
    if (key !== STREAMED_FILE) res.append(key, value);
  }
  // A stored file streamed from disk gives its request slot back now (ADR 321, fourth amendment).
  if (response.headers.has(STREAMED_FILE)) releaseSlot(res);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeCoalesced(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
