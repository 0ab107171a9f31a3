import { type Failure, failure, type Ok } from "../../platform/result.server";
import { SchedulingError, SLOTS_FAILED } from "./types";

/** A scheduling call's value, or the failure it ended in. */
export type Scheduled<T> = Ok<{ value: T }> | Failure;

/**
 * The edge of `scheduling/` (ADR 310): the providers throw `SchedulingError` deep inside their
 * calls (Cal.com's HTTP, the built-in scheduler's transaction); here, and only here, such a throw
 * becomes a `Failure`. Anything else a provider throws (an answer it could not read) is logged
 * and answered with `unexpected` as a 502: the scheduling service failed, not this server.
 */
export async function attempt<T>(
  run: () => T | Promise<T>,
  unexpected = SLOTS_FAILED,
): Promise<Scheduled<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    if (error instanceof SchedulingError) return failure(error.status, error.message);
    console.error("Terminservice:", error);
    return failure(502, unexpected);
  }
}

/** The same for a synchronous call that must stay synchronous (a write in one transaction). */
export function attemptNow<T>(run: () => T): Scheduled<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    if (error instanceof SchedulingError) return failure(error.status, error.message);
    throw error;
  }
}
