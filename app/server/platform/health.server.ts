import { pingDb } from "./db.server";

/** The health check behind GET /healthz: the database answers a trivial query. */
export function healthy(): boolean {
  return pingDb();
}
