import { createContext, type RouterContextProvider } from "react-router";

export type RequestInfo = { nonce: string; clientIp: string };

/** Set by the Express server for each request (server/app.ts); defaults serve `react-router dev`. */
export const requestContext = createContext<RequestInfo>({ nonce: "", clientIp: "unknown" });

export function clientIp(context: Readonly<RouterContextProvider>): string {
  return context.get(requestContext).clientIp;
}
