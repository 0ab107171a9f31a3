import { createContext, type RouterContextProvider } from "react-router";
import type { LandingStamp } from "../rendering/landing-fast-path.server";

export type RequestInfo = {
  nonce: string;
  clientIp: string;
  /** A first visit to `/` the fast path could not answer: what its loaders read (ADR 300). */
  landingStamp?: LandingStamp;
};

/** Set by the Express server for each request (server/app.ts); defaults serve `react-router dev`. */
export const requestContext = createContext<RequestInfo>({ nonce: "", clientIp: "unknown" });

export function clientIp(context: Readonly<RouterContextProvider>): string {
  return context.get(requestContext).clientIp;
}
