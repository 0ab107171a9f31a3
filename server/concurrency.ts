import type { NextFunction, Request, Response } from "express";

/**
 * Bounds how many requests the server works on at once (ADR 195): memory grows with the
 * requests in flight (~0.7 MB each: render state, parsed bodies, response buffers), and a 256 MB
 * machine is OOM-killed long before Fly's proxy stops sending (250 at once measured: 310–320 MB).
 * Requests beyond `limit` wait, in arrival order, before anything reads their body (a waiting
 * request costs its socket and parsed headers only); beyond `limit + queue` they get 503 with
 * Retry-After at once. A request whose client goes away while waiting leaves the queue.
 *
 * One client never holds more than `perClient` of the slots (ADR 197): its further requests wait
 * behind everyone else's, and past `perClientQueue` waiting it gets 429. So a single client
 * trickling uploads byte by byte (each holds its slot until the body is complete) slows only itself.
 * Beside the client's share (ADR 321): one network — an IPv4 /24, an IPv6 /48, whose 256 /56 are
 * free from a tunnel broker — holds at most `perNetwork` slots (half), and requests whose body is
 * still on its way (`inTransit`: not read ahead, server/body-intake.ts) at most `perTransit` (half),
 * so the other half always serves requests whose bodies are complete. Small bodies that did not fit
 * the read-ahead budget (`smallInTransit`) have their own share (`perSmallTransit`, a quarter),
 * which uploads in transit cannot take (ADR 321, amendment).
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
  /** The sender's network (IPv4 /24, IPv6 /48); all requests count as one network without it. */
  networkOf?: (req: Request) => string;
  /** Slots one network may hold at once (default with `networkOf`: half of `limit`, at least 1). */
  perNetwork?: number;
  /** Whether the request's body is still to be read in its slot. */
  inTransit?: (req: Request, res: Response) => boolean;
  /** Slots requests with bodies in transit may hold together (default: half of `limit`, at least 1). */
  perTransit?: number;
  /** Whether the request is a small body read in its slot (it did not fit the read-ahead budget). */
  smallInTransit?: (req: Request, res: Response) => boolean;
  /** Slots of small bodies in transit, beside `perTransit` (default: a quarter of `limit`, at least 1). */
  perSmallTransit?: number;
  /** Requests that never wait (the health check: Fly must see the machine alive under load). */
  bypass?: (req: Request) => boolean;
};

export type ConcurrencyStats = {
  active: number;
  waiting: number;
  /** Of the active ones: requests whose body is still on its way (not small ones). */
  inTransit: number;
  /** Of the active ones: small bodies read in their slot (the read-ahead budget was full). */
  smallInTransit: number;
};

export type ConcurrencyLimit = ((req: Request, res: Response, next: NextFunction) => void) & {
  stats: () => ConcurrencyStats;
};

type Holder = { client: string; network: string; transit: false | "upload" | "small" };
type Waiting = Holder & { start: () => void };

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
  networkOf,
  perNetwork = networkOf ? Math.max(1, Math.floor(limit / 2)) : limit,
  inTransit = () => false,
  perTransit = Math.max(1, Math.floor(limit / 2)),
  smallInTransit = () => false,
  perSmallTransit = Math.max(1, Math.floor(limit / 4)),
  bypass,
}: ConcurrencyOptions): ConcurrencyLimit {
  let active = 0;
  let transit = 0;
  let smallTransit = 0;
  const waiting: Waiting[] = [];
  const activeBy = new Map<string, number>();
  const activeByNetwork = new Map<string, number>();
  const waitingBy = new Map<string, number>();
  const count = (map: Map<string, number>, key: string) => map.get(key) ?? 0;
  const add = (map: Map<string, number>, key: string, delta: number) => {
    const next = count(map, key) + delta;
    if (next > 0) map.set(key, next);
    else map.delete(key);
  };
  /** Whether a request may take a free slot now: its client, network and transit shares. */
  const fits = (holder: Holder) =>
    active < limit &&
    count(activeBy, holder.client) < perClient &&
    count(activeByNetwork, holder.network) < perNetwork &&
    (holder.transit !== "upload" || transit < perTransit) &&
    (holder.transit !== "small" || smallTransit < perSmallTransit);

  // The longest waiting request within its shares gets a free slot.
  const dispatch = () => {
    while (active < limit) {
      const at = waiting.findIndex(fits);
      if (at < 0) return;
      const [next] = waiting.splice(at, 1);
      add(waitingBy, next.client, -1);
      next.start();
    }
  };
  const run = (holder: Holder, res: Response, next: NextFunction) => {
    active++;
    if (holder.transit === "upload") transit++;
    if (holder.transit === "small") smallTransit++;
    add(activeBy, holder.client, 1);
    add(activeByNetwork, holder.network, 1);
    res.once("close", () => {
      active--;
      if (holder.transit === "upload") transit--;
      if (holder.transit === "small") smallTransit--;
      add(activeBy, holder.client, -1);
      add(activeByNetwork, holder.network, -1);
      dispatch();
    });
    next();
  };

  const middleware = ((req: Request, res: Response, next: NextFunction) => {
    if (limit <= 0 || bypass?.(req)) return next();
    const holder: Holder = {
      client: clientOf(req),
      network: networkOf?.(req) ?? "",
      transit: smallInTransit(req, res) ? "small" : inTransit(req, res) ? "upload" : false,
    };
    if (fits(holder)) return run(holder, res, next);
    if (waiting.length >= queue) return refuse(req, res, 503);
    if (count(waitingBy, holder.client) >= perClientQueue) return refuse(req, res, 429);
    const entry: Waiting = {
      ...holder,
      start: () => {
        res.off("close", leave);
        run(holder, res, next);
      },
    };
    const leave = () => {
      const at = waiting.indexOf(entry);
      if (at < 0) return;
      waiting.splice(at, 1);
      add(waitingBy, holder.client, -1);
    };
    res.once("close", leave);
    waiting.push(entry);
    add(waitingBy, holder.client, 1);
  }) as ConcurrencyLimit;
  middleware.stats = () => ({
    active,
    waiting: waiting.length,
    inTransit: transit,
    smallInTransit: smallTransit,
  });
  return middleware;
}

/**
 * The address a request comes from: Fly's client IP behind Fly's proxy, else the socket's address
 * ("" when unknown). The request slots and every counter of the app key it by the one client
 * identity (`clientKey` of app/lib/client-key.ts: IPv6 by its /56, ADR 254) and its network
 * (`networkKey`: IPv4 /24, IPv6 /48, ADR 321).
 */
export function clientAddress(req: Request, trustFly: boolean): string {
  return (trustFly ? req.get("fly-client-ip") : undefined) || req.socket.remoteAddress || "";
}
