import { berlinDayOf } from "~/lib/booking-calendar";
import { type Pipeline, resolveStage, type Stage } from "~/lib/pipeline";
import { type ClosedDay, promiseDueTimes } from "~/lib/promises";
import type { RequestStatus } from "~/lib/request-status";
import { closedDays } from "../appointments/holidays.server";
import { getConfiguration } from "../configuration/configuration.server";

/** The configured pipeline: stages, the reasons of "Verloren", the promises (ADR 345). */
export const pipeline = (): Pipeline => getConfiguration().pipeline;

/** A request's stage as configured (a stage no longer configured: the first of its status). */
export const stageOf = (row: { stage: string; status: RequestStatus }): Stage =>
  resolveStage(pipeline(), row.stage, row.status);

/**
 * The days the promises do not count (ADR 346): besides Saturday and Sunday, the nationwide
 * holidays always, the scheduler's state holidays and its blocked days (24.12., 31.12. and the
 * ranges of "Terminbuchung"), for the years around `from`.
 */
export function promiseClosedDays(from: Date): ClosedDay {
  const scheduling = getConfiguration().scheduling;
  const year = Number(berlinDayOf(from).slice(0, 4));
  // Ten working days never reach beyond the next year but one (a blocked range may be long).
  const closed = closedDays({ ...scheduling, publicHolidays: true }, year, year + 2);
  return (day) => closed.has(day);
}

/** Both due times of a request received (or released from the spam check) at `received`. */
export function dueTimesFor(received: Date) {
  return promiseDueTimes(received, pipeline().promises, promiseClosedDays(received));
}
