import { isIP, type Socket } from "node:net";
import type { NextFunction, Request, Response } from "express";
import { watchWrites } from "./write-stall.ts";

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
 * which uploads in transit cannot take (ADR 321, amendment). One network holds at most
 * `perNetworkTransit` of the uploads' slots (a quarter of them): uploads kept just above the floor
 * pace from a few networks leave the rest of the uploads' half to everyone else's (ADR 321, third
 * amendment).
 *
 * A connection holds at most one slot (ADR 321, second amendment): a request pipelined behind
 * another on the same connection waits for that one's answer to close, outside the shared queue;
 * more than `perSocketPipeline` waiting ends the connection. An answer that holds a slot and makes
 * no write progress for `writeStallMs` (the client does not read it) ends its connection, which
 * frees the slot. When a slot frees, the waiting request of the network, then the client, served
 * longest ago gets it (round robin, arrival order within), not simply the longest waiting one; one
 * network has at most `perNetworkQueue` requests waiting, one client at most `perClientSmallQueue`
 * handed-on small bodies and `perClientUploadQueue` uploads waiting.
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
  /** Of those, slots one network's uploads may hold (default with `networkOf`: a quarter of `perTransit`, at least 1). */
  perNetworkTransit?: number;
  /** Whether the request is a small body read in its slot (it did not fit the read-ahead budget). */
  smallInTransit?: (req: Request, res: Response) => boolean;
  /** Slots of small bodies in transit, beside `perTransit` (default: a quarter of `limit`, at least 1). */
  perSmallTransit?: number;
  /** Requests one network may have waiting (default: the whole queue). */
  perNetworkQueue?: number;
  /** Small bodies in transit (handed on) one client may have waiting (default 2). */
  perClientSmallQueue?: number;
  /** Uploads in transit one client may have waiting (default 4). */
  perClientUploadQueue?: number;
  /** Requests pipelined on one connection that may wait for its slot (default 8); beyond: closed. */
  perSocketPipeline?: number;
  /** An answer holding a slot that writes nothing this long ends its connection (ms, default 15 s). */
  writeStallMs?: number;
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
/** The requests of one connection: whether one holds (or waits for) a slot, and those behind it. */
type Line = { busy: boolean; pending: (() => void)[] };
type Waiting = Holder & { start: () => void };

/** How each answer holding a slot gives it back early (`releaseSlot`). */
const releases = new WeakMap<Response, () => void>();

/**
 * Gives the answer's slot back before the answer is out (ADR 321, fourth amendment): a stored
 * file streamed from disk in 64 KB pieces costs little memory however slowly it is read, so it
 * holds no slot while it is sent; a client reading it drop by drop keeps its connection only, one
 * that reads nothing loses it to the write-stall cut as before. Its connection's pipelined
 * requests still wait for it. No-op for an answer without a slot.
 */
export function releaseSlot(res: Response) {
  releases.get(res)?.();
}

/** Requests that may wait for a slot before 503: more than Fly's hard_limit lets through at once. */
export const REQUEST_QUEUE_MAX = 256;
/** An answer that makes no write progress this long ends its connection (ADR 321, second amendment). */
export const WRITE_STALL_MS = 15_000;

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
  perNetworkTransit = networkOf ? Math.max(1, Math.floor(perTransit / 4)) : perTransit,
  smallInTransit = () => false,
  perSmallTransit = Math.max(1, Math.floor(limit / 4)),
  perNetworkQueue = queue,
  perClientSmallQueue = 2,
  perClientUploadQueue = 4,
  perSocketPipeline = 8,
  writeStallMs = WRITE_STALL_MS,
  bypass,
}: ConcurrencyOptions): ConcurrencyLimit {
  let active = 0;
  let transit = 0;
  let smallTransit = 0;
  const waiting: Waiting[] = [];
  const activeBy = new Map<string, number>();
  const activeByNetwork = new Map<string, number>();
  /** Uploads in transit by network. */
  const uploadsByNetwork = new Map<string, number>();
  const waitingBy = new Map<string, number>();
  const waitingByNetwork = new Map<string, number>();
  /** Waiting bodies in transit by kind and client. */
  const waitingByTransit = new Map<string, number>();
  /** When a network / client last got a slot (a turn number), kept while it has requests. */
  const servedNetwork = new Map<string, number>();
  const servedClient = new Map<string, number>();
  let turn = 0;
  const lines = new WeakMap<Socket, Line>();
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
    (holder.transit !== "upload" ||
      (transit < perTransit && count(uploadsByNetwork, holder.network) < perNetworkTransit)) &&
    (holder.transit !== "small" || smallTransit < perSmallTransit);

  const transitKey = (holder: Holder) => `${holder.transit}\0${holder.client}`;
  const enqueue = (entry: Waiting, delta: 1 | -1) => {
    add(waitingBy, entry.client, delta);
    add(waitingByNetwork, entry.network, delta);
    if (entry.transit) add(waitingByTransit, transitKey(entry), delta);
    if (delta < 0) forget(entry);
  };
  /** Turn numbers are kept only for networks and clients with requests active or waiting. */
  const forget = (holder: Holder) => {
    if (!count(activeBy, holder.client) && !count(waitingBy, holder.client))
      servedClient.delete(holder.client);
    if (!count(activeByNetwork, holder.network) && !count(waitingByNetwork, holder.network))
      servedNetwork.delete(holder.network);
  };
  /** Whether `a` goes before `b`: its network, then its client, got a slot longer ago. */
  const before = (a: Waiting, b: Waiting) => {
    const network = (servedNetwork.get(a.network) ?? 0) - (servedNetwork.get(b.network) ?? 0);
    if (network !== 0) return network < 0;
    return (servedClient.get(a.client) ?? 0) < (servedClient.get(b.client) ?? 0);
  };
  // Round robin over networks and clients (ADR 321, second amendment): of the waiting requests
  // within their shares, the one whose network, then client, was served longest ago gets the slot;
  // arrival order within a client.
  const dispatch = () => {
    while (active < limit) {
      let at = -1;
      for (let i = 0; i < waiting.length; i++) {
        const entry = waiting[i] as Waiting;
        if (fits(entry) && (at < 0 || before(entry, waiting[at] as Waiting))) at = i;
      }
      if (at < 0) return;
      const [next] = waiting.splice(at, 1) as [Waiting];
      enqueue(next, -1);
      next.start();
    }
  };
  const run = (holder: Holder, req: Request, res: Response, next: NextFunction) => {
    active++;
    if (holder.transit === "upload") {
      transit++;
      add(uploadsByNetwork, holder.network, 1);
    }
    if (holder.transit === "small") smallTransit++;
    add(activeBy, holder.client, 1);
    add(activeByNetwork, holder.network, 1);
    turn++;
    servedClient.set(holder.client, turn);
    servedNetwork.set(holder.network, turn);
    const stall = watchWrites(req, res, writeStallMs);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      releases.delete(res);
      active--;
      if (holder.transit === "upload") {
        transit--;
        add(uploadsByNetwork, holder.network, -1);
      }
      if (holder.transit === "small") smallTransit--;
      add(activeBy, holder.client, -1);
      add(activeByNetwork, holder.network, -1);
      forget(holder);
      dispatch();
    };
    releases.set(res, release);
    // A slot given back early (`releaseSlot`) keeps its answer under the write-stall cut: a
    // download nobody reads still ends its connection.
    res.once("close", () => {
      stall.stop();
      release();
    });
    next();
  };

  const admit = (req: Request, res: Response, next: NextFunction) => {
    const holder: Holder = {
      client: clientOf(req),
      network: networkOf?.(req) ?? "",
      transit: smallInTransit(req, res) ? "small" : inTransit(req, res) ? "upload" : false,
    };
    if (fits(holder)) return run(holder, req, res, next);
    if (waiting.length >= queue) return refuse(req, res, 503);
    if (
      count(waitingBy, holder.client) >= perClientQueue ||
      count(waitingByNetwork, holder.network) >= perNetworkQueue ||
      (holder.transit &&
        count(waitingByTransit, transitKey(holder)) >=
          (holder.transit === "small" ? perClientSmallQueue : perClientUploadQueue))
    )
      return refuse(req, res, 429);
    const entry: Waiting = {
      ...holder,
      start: () => {
        res.off("close", leave);
        run(holder, req, res, next);
      },
    };
    const leave = () => {
      const at = waiting.indexOf(entry);
      if (at < 0) return;
      waiting.splice(at, 1);
      enqueue(entry, -1);
    };
    res.once("close", leave);
    waiting.push(entry);
    enqueue(entry, 1);
  };

  // One slot per connection (ADR 321, second amendment): a pipelined request waits for the answer
  // before it on its connection to close, outside the shared queue.
  const enter = (line: Line, req: Request, res: Response, next: NextFunction) => {
    line.busy = true;
    admit(req, res, next);
    res.once("close", () => {
      line.busy = false;
      // A closed connection's pipelined requests are answered by nobody: they never take a slot.
      if (req.socket.destroyed) line.pending.length = 0;
      else line.pending.shift()?.();
    });
  };

  const middleware = ((req: Request, res: Response, next: NextFunction) => {
    if (limit <= 0 || bypass?.(req)) return next();
    const socket = req.socket;
    let line = lines.get(socket);
    if (!line) {
      line = { busy: false, pending: [] };
      lines.set(socket, line);
    }
    if (!line.busy) return enter(line, req, res, next);
    if (line.pending.length >= perSocketPipeline) {
      socket.destroy();
      return;
    }
    const own = line;
    const go = () => {
      res.off("close", drop);
      enter(own, req, res, next);
    };
    const drop = () => {
      const at = own.pending.indexOf(go);
      if (at >= 0) own.pending.splice(at, 1);
    };
    res.once("close", drop);
    own.pending.push(go);
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
  const fly = trustFly ? flyClientIp(req.get("fly-client-ip")) : undefined;
  return fly || req.socket.remoteAddress || "";
}

/**
 * Fly's client IP header, when it is an IP address (ADR 321, second amendment): anything else
 * (a name, a list, garbage) would be a fresh client and network of its own for every spelling.
 */
function flyClientIp(value: string | undefined): string | undefined {
  const address = value?.trim();
  return address && isIP(address) ? address : undefined;
}
