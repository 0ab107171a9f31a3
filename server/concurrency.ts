import type { NextFunction, Request, Response } from "express";

/**
 * Bounds how many requests the server works on at once (issue 16, ADR 195): memory grows with the
 * requests in flight (~0.7 MB each: render state, parsed bodies, response buffers), and a 256 MB
 * machine is OOM-killed long before Fly's proxy stops sending (250 at once measured: 310–320 MB).
 * Requests beyond `limit` wait, in arrival order, before anything reads their body (a waiting
 * request costs its socket and parsed headers only); beyond `limit + queue` they get 503 with
 * Retry-After at once. A request whose client goes away while waiting leaves the queue.
 */
/** Requests that may wait for a slot before 503: more than Fly's hard_limit lets through at once. */
export const REQUEST_QUEUE_MAX = 256;

export type ConcurrencyOptions = {
  /** Requests worked on at once; 0 switches the bound off. */
  limit: number;
  /** Requests that may wait for a slot. */
  queue: number;
  /** Requests that never wait (the health check: Fly must see the machine alive under load). */
  bypass?: (req: Request) => boolean;
};

export type ConcurrencyLimit = ((req: Request, res: Response, next: NextFunction) => void) & {
  stats: () => { active: number; waiting: number };
};

export function concurrencyLimit({ limit, queue, bypass }: ConcurrencyOptions): ConcurrencyLimit {
  let active = 0;
  const waiting: (() => void)[] = [];

  // A finished request hands its slot straight to the longest waiting one.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  const run = (res: Response, next: NextFunction) => {
    res.once("close", release);
    next();
  };

  const middleware = ((req: Request, res: Response, next: NextFunction) => {
    if (limit <= 0 || bypass?.(req)) return next();
    if (active < limit) {
      active++;
      return run(res, next);
    }
    if (waiting.length >= queue) {
      const message =
        "Der Server ist gerade ausgelastet. Bitte in einigen Sekunden erneut versuchen.";
      res.setHeader("Retry-After", "5");
      if (req.path.startsWith("/api/")) {
        res.status(503).json({ success: false, error: message, message });
      } else {
        res.status(503).type("text/plain; charset=utf-8").send(message);
      }
      return;
    }
    const start = () => {
      res.off("close", leave);
      run(res, next);
    };
    const leave = () => {
      const at = waiting.indexOf(start);
      if (at >= 0) waiting.splice(at, 1);
    };
    res.once("close", leave);
    waiting.push(start);
  }) as ConcurrencyLimit;
  middleware.stats = () => ({ active, waiting: waiting.length });
  return middleware;
}
