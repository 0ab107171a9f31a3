import { env } from "../../platform/env.server";
import { attempt, type Scheduled } from "./attempt.server";
import { builtinProvider } from "./builtin.server";
import { calcomProvider } from "./calcom.server";
import {
  BOOKING_FAILED,
  type BookingRequest,
  type BookingResult,
  CANCEL_FAILED,
  type EventType,
  type SchedulingProvider,
  type Slot,
} from "./types";

/**
 * The active provider's calls, each answering a `Result` (ADR 310): a provider throws inside
 * `scheduling/`, nothing outside it catches.
 */
export type SchedulingService = {
  name: SchedulingProvider["name"];
  listEventTypes(): Promise<Scheduled<EventType[]>>;
  getSlots(...args: Parameters<SchedulingProvider["getSlots"]>): Promise<Scheduled<Slot[]>>;
  book(input: BookingRequest): Promise<Scheduled<BookingResult>>;
  getBooking(uid: string): Promise<Scheduled<BookingResult | null>>;
  cancel(uid: string): Promise<Scheduled<void>>;
};

function service(provider: SchedulingProvider): SchedulingService {
  return {
    name: provider.name,
    listEventTypes: () => attempt(() => provider.listEventTypes()),
    getSlots: (...args) => attempt(() => provider.getSlots(...args)),
    book: (input) => attempt(() => provider.book(input), BOOKING_FAILED),
    getBooking: (uid) => attempt(() => provider.getBooking(uid)),
    cancel: (uid) => attempt(() => provider.cancel(uid), CANCEL_FAILED),
  };
}

const builtin = service(builtinProvider);
const calcom = service(calcomProvider);

/** Cal.com when CALCOM_API_KEY is set, otherwise the built-in scheduler. */
export function scheduling(): SchedulingService {
  return env().CALCOM_API_KEY ? calcom : builtin;
}
