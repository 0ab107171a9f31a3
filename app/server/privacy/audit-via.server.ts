import { AsyncLocalStorage } from "node:async_hooks";

/**
 * How an admin acted, for the audit log (ADR 319): in a session (the page or the API with the
 * session's token), with an API token (its id), or on the server's command line. A leaf module:
 * the root middleware opens one scope per request, the authentication step names the way, and
 * `audit()` reads it — so no action has to pass it along.
 */
export type AuditVia = "session" | `token:${number}` | "cli";

const scope = new AsyncLocalStorage<{ via?: AuditVia }>();

/** Runs one request (or any unit of work) in its own scope. */
export function withAuditScope<T>(run: () => T): T {
  return scope.run({}, run);
}

/** Called where the caller is authenticated: the way of everything audited after it. */
export function actingVia(via: AuditVia) {
  const current = scope.getStore();
  if (current) current.via = via;
}

/** The way named in this scope, if any. */
export const currentVia = (): AuditVia | undefined => scope.getStore()?.via;
