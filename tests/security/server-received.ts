import diagnostics from "node:diagnostics_channel";
import type http from "node:http";

/**
 * Resolves once the server (in this process) has received `n` requests that `matches` (headers
 * parsed, body possibly still streaming): Node publishes every request it starts on
 * `http.server.request.start`. Call before sending; await `all` after.
 */
export function serverReceived(n: number, matches: (request: http.IncomingMessage) => boolean) {
  let received = 0;
  let allReceived = () => {};
  const all = new Promise<void>((resolve) => {
    allReceived = resolve;
  });
  const onRequest = (message: unknown) => {
    const { request } = message as { request: http.IncomingMessage };
    if (matches(request) && ++received === n) allReceived();
  };
  diagnostics.subscribe("http.server.request.start", onRequest);
  return {
    all: all.finally(() => diagnostics.unsubscribe("http.server.request.start", onRequest)),
  };
}
