import type { NextFunction, Request, Response } from "express";
import { BODY_PACE, type BodyPace, paceWatch, refuseTooSlow } from "./body-pace.ts";
import { BODY_TYPES } from "./guards.ts";

/**
 * Small bodies are read before their request takes a slot (ADR 321): a body of at most
 * `maxBody` bytes (declared by Content-Length) is read into memory first, under the body pace
 * (server/body-pace.ts), so a client trickling small bodies holds no request slot (ADR 195, 197)
 * at all. All bodies read ahead — being read, or complete and waiting for their slot — hold at
 * most `budget` bytes (the 256 MB machine, ADR 196), one client at most a quarter of it and one
 * network (IPv4 /24, IPv6 /48) at most half. The budget is reserved by the bytes that have
 * arrived, never by the declared length (ADR 321, amendment): a body declared and not sent
 * reserves nothing. A body whose next bytes do not fit is handed on with what it has read so far
 * (put back in front of its stream, `res.locals.smallInTransit`) and read in its slot — a slot of
 * the small bodies' own share (server/concurrency.ts). A body not eligible (larger, chunked) is
 * read in its slot as before. The body is handed on as `res.locals.readAhead` (server/guards.ts
 * streams it from there).
 */
export type IntakeOptions = {
  /** The largest body read ahead (bytes). */
  maxBody?: number;
  /** All bodies read ahead together (bytes). */
  budget?: number;
  clientOf?: (req: Request) => string;
  networkOf?: (req: Request) => string;
  pace?: BodyPace;
};

export const READ_AHEAD_MAX_BODY = 64 * 1024;
export const READ_AHEAD_BUDGET = 4 * 1024 * 1024;

export type IntakeStats = {
  /** Requests whose body is being read ahead right now. */
  reading: number;
  /** Bytes received of bodies read ahead (being read, or waiting for their slot). */
  bytes: number;
  /** The most `bytes` ever reserved at once. */
  peakBytes: number;
};

export type BodyIntake = ((req: Request, res: Response, next: NextFunction) => void) & {
  stats: () => IntakeStats;
};

const MUTATING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export function bodyIntake({
  maxBody = READ_AHEAD_MAX_BODY,
  budget = READ_AHEAD_BUDGET,
  clientOf = () => "",
  networkOf = () => "",
  pace = BODY_PACE,
}: IntakeOptions = {}): BodyIntake {
  let reading = 0;
  let bytes = 0;
  let peakBytes = 0;
  const byClient = new Map<string, number>();
  const byNetwork = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, delta: number) => {
    const next = (map.get(key) ?? 0) + delta;
    if (next > 0) map.set(key, next);
    else map.delete(key);
  };

  const middleware = ((req: Request, res: Response, next: NextFunction) => {
    const declared = Number(req.headers["content-length"] ?? "0");
    const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (
      !MUTATING.has(req.method) ||
      req.headers["transfer-encoding"] !== undefined ||
      !Number.isSafeInteger(declared) ||
      declared <= 0 ||
      declared > maxBody ||
      !BODY_TYPES.has(type)
    )
      return next();
    const client = clientOf(req);
    const network = networkOf(req);
    // Bytes of this body in the budget; reserved until the request is answered (a complete body
    // waiting for its slot still counts) or the body is handed on.
    let held = 0;
    const release = () => {
      if (held === 0) return;
      bytes -= held;
      add(byClient, client, -held);
      add(byNetwork, network, -held);
      held = 0;
    };
    res.once("close", release);

    reading++;
    let done = false;
    const chunks: Buffer[] = [];
    const finish = () => {
      if (done) return false;
      done = true;
      reading--;
      watch.stop();
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("close", onEnd);
      return true;
    };
    const watch = paceWatch(pace, () => {
      if (finish()) refuseTooSlow(req, res);
    });
    const fits = (n: number) =>
      bytes + n <= budget &&
      (byClient.get(client) ?? 0) + n <= budget / 4 &&
      (byNetwork.get(network) ?? 0) + n <= budget / 2;
    const onData = (chunk: Buffer) => {
      watch.count(chunk.length);
      chunks.push(chunk);
      if (!fits(chunk.length)) {
        // Handed on: what came so far goes back in front of the stream, read in a slot.
        if (!finish()) return;
        release();
        req.pause();
        req.unshift(Buffer.concat(chunks));
        res.locals.smallInTransit = true;
        next();
        return;
      }
      held += chunk.length;
      bytes += chunk.length;
      peakBytes = Math.max(peakBytes, bytes);
      add(byClient, client, chunk.length);
      add(byNetwork, network, chunk.length);
    };
    const onEnd = () => {
      if (!finish()) return;
      // Gone before its body was complete: nothing to answer.
      if (!req.complete) return;
      res.locals.readAhead = Buffer.concat(chunks);
      next();
    };
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("close", onEnd);
  }) as BodyIntake;
  middleware.stats = () => ({ reading, bytes, peakBytes });
  return middleware;
}
