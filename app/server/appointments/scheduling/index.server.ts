import { env } from "../../platform/env.server";
import { builtinProvider } from "./builtin.server";
import { calcomProvider } from "./calcom.server";
import type { SchedulingProvider } from "./types";

/** Cal.com when CALCOM_API_KEY is set, otherwise the built-in scheduler. */
export function scheduling(): SchedulingProvider {
  return env().CALCOM_API_KEY ? calcomProvider : builtinProvider;
}
