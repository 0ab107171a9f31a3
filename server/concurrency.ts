import type { NextFunction, Request, Response } from "express";

/**
 * Bounds how many requests the server works on at once (issue 16, ADR 195): memory grows with the
 * requests in flight (~0.7 MB each: render state, parsed bodies, response buffers), and a 256 MB
 * machine is OOM-killed long before Fly's proxy stops sending (250 at once measured: 310–320 MB).
 * Requests beyond `limit` wait, in arrival order, before anything reads their body (a waiting
 * request costs its socket and parsed headers only); beyond `limit + queue` they get 503 with
 * Retry-After at once. A request whose client goes away while waiting leaves the queue.
 *
 * One client never holds more than `perClient` of the slots (ADR 197): its further requests wait
 * behind everyone else's, and past `perClientQueue` waiting it gets 429. So a single client
 * trickling uploads byte by byte (each holds its slot until the body is complete) slows only itself.
 */
export type ConcurrencyOptions = {
  /** Requests worked on at once; 0 switches the bound off. */
  limit: number;
  /** Requests that may wait for a slot. */
  queue: number;
  /** Slots one client may hold at once (default: a quarter of `limit`, at least 1). */
  perClient?: number;
  /** Requests one client may have waiting (default: half the queue, at least 1). */
  perClientQueue?: number;
  /** Who sent the request (the client IP); all requests count as one client without it. */
  clientOf?: (req: Request) => string;
  /** Requests that never wait (the health check: Fly must see the machine alive under load). */
  bypass?: (req: Request) => boolean;
};

export type ConcurrencyLimit = ((req: Request, res: Response, next: NextFunction) => void) & {
  stats: () => { active: number; waiting: number };
};

type Waiting = { client: string; start: () => void };

/** Requests that may wait for a slot before 503: more than Fly's hard_limit lets through at once. */
export const REQUEST_QUEUE_MAX = 256;

const BUSY = "Der Server ist gerade ausgelastet. Bitte in einigen Sekunden erneut versuchen.";
const TOO_MANY = "Zu viele gleichzeitige Anfragen. Bitte in einigen Sekunden erneut versuchen.";

function refuse(req: Request, res: Response, status: 429 | 503) {
  const message = status === 429 ? TOO_MANY : BUSY;
  res.setHeader("Retry-After", "5");
  if (req.path.startsWith("/api/")) {
    res.status(status).json({ success: false, error: message, message });
  } else {
    res.status(status).type("text/plain; charset=utf-8").send(message);
  }
}

export function concurrencyLimit({
  limit,
  queue,
  perClient = Math.max(1, Math.floor(limit / 4)),
  perClientQueue = Math.max(1, Math.floor(queue / 2)),
  clientOf = () => "",
  bypass,
}: ConcurrencyOptions): ConcurrencyLimit {
  let active = 0;
  const waiting: Waiting[] = [];
  const activeBy = new Map<string, number>();
  const waitingBy = new Map<string, number>();
  const count = (map: Map<string, number>, client: string) => map.get(client) ?? 0;
  const add = (map: Map<string, number>, client: string, delta: number) => {
    const next = count(map, client) + delta;
    if (next > 0) map.set(client, next);
    else map.delete(client);
  };

  // The longest waiting request whose client is below its share gets a free slot.
  const dispatch = () => {
    while (active < limit) {
      const at = waiting.findIndex((w) => count(activeBy, w.client) < perClient);
      if (at < 0) return;
      const [next] = waiting.splice(at, 1);
      add(waitingBy, next.client, -1);
      next.start();
    }
  };
  const run = (client: string, res: Response, next: NextFunction) => {
    active++;
    add(activeBy, client, 1);
    res.once("close", () => {
      active--;
      add(activeBy, client, -1);
      dispatch();
    });
    next();
  };

  const middleware = ((req: Request, res: Response, next: NextFunction) => {
    if (limit <= 0 || bypass?.(req)) return next();
    const client = clientOf(req);
    if (active < limit && count(activeBy, client) < perClient) return run(client, res, next);
    if (waiting.length >= queue) return refuse(req, res, 503);
    if (count(waitingBy, client) >= perClientQueue) return refuse(req, res, 429);
    const entry: Waiting = {
      client,
      start: () => {
        res.off("close", leave);
        run(client, res, next);
      },
    };
    const leave = () => {
      const at = waiting.indexOf(entry);
      if (at < 0) return;
      waiting.splice(at, 1);
      add(waitingBy, client, -1);
    };
    res.once("close", leave);
    waiting.push(entry);
    add(waitingBy, client, 1);
  }) as ConcurrencyLimit;
  middleware.stats = () => ({ active, waiting: waiting.length });
  return middleware;
}

/**
 * The address a request comes from: Fly's client IP behind Fly's proxy, else the socket's address
 * ("" when unknown). The request slots and every counter of the app key it by the one client
 * identity (`clientKey` of app/lib/client-key.ts: IPv6 by its /56, ADR 254).
 */
export function clientAddress(req: Request, trustFly: boolean): string {
  return (trustFly ? req.get("fly-client-ip") : undefined) || req.socket.remoteAddress || "";
}
