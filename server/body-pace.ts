import type { Request, Response } from "express";

/**
 * The minimum pace of a request body (ADR 321): after a grace period the bytes received so far
 * must have come at `bytesPerSecond` since the body started, or the body is cut (408). For a body
 * of known size this is a deadline that grows with the size — a small form must be in after ~10 s,
 * an upload of 50 MB after ~1.7 h at the floor, never sooner (a rate floor, no size cap) — and a
 * client trickling a byte now and then holds nothing for long. It is measured on what the server
 * has read: a route that reads slowly is not timed against the client.
 *
 * Beside the pace, every body has a total deadline (`deadlineMs`, BODY_DEADLINE_SECONDS, ADR 321
 * amendment): an upload sent just above the floor would otherwise hold its slot for hours.
 */
export type BodyPace = { graceMs: number; bytesPerSecond: number; deadlineMs?: number };

/** The total deadline of a body when none is configured (BODY_DEADLINE_SECONDS' default). */
export const BODY_DEADLINE_SECONDS = 900;

export const BODY_PACE: BodyPace = {
  graceMs: 10_000,
  bytesPerSecond: 8 * 1024,
  deadlineMs: BODY_DEADLINE_SECONDS * 1000,
};

/** Milliseconds after the start by which `received` bytes are no longer enough. */
export const dueBy = (received: number, pace: BodyPace) =>
  Math.min(pace.graceMs + (received / pace.bytesPerSecond) * 1000, pace.deadlineMs ?? Infinity);

export const TOO_SLOW =
  "Die Übertragung war zu langsam und wurde abgebrochen. Bitte erneut versuchen.";

/**
 * Watches one body: `tooSlow` is called once when its bytes fall behind the pace. `count` adds
 * bytes as they are read; `stop` ends the watch (body complete, or the request gone).
 */
export function paceWatch(pace: BodyPace, tooSlow: () => void) {
  const started = Date.now();
  let received = 0;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    timer = setTimeout(check, Math.max(0, started + dueBy(received, pace) - Date.now()) + 1);
    timer.unref();
  };
  const check = () => {
    if (Date.now() - started >= dueBy(received, pace)) {
      timer = undefined;
      tooSlow();
    } else arm();
  };
  arm();
  return {
    count(bytes: number) {
      received += bytes;
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * The answer to a body that fell behind: 408 with a German message (JSON under /api), then the
 * connection ends once it is out (the rest of the body is never read).
 */
export function refuseTooSlow(req: Request, res: Response) {
  if (!res.headersSent) {
    res.setHeader("Connection", "close");
    if (req.path.startsWith("/api/"))
      res.status(408).json({ success: false, error: TOO_SLOW, message: TOO_SLOW });
    else res.status(408).type("text/plain; charset=utf-8").send(TOO_SLOW);
  }
  if (res.writableFinished) req.destroy();
  else res.once("finish", () => req.destroy());
}
