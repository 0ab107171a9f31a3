import { tmpdir } from "node:os";
import path from "node:path";

/** Loopback ports of the e2e stack (tests/e2e/stack.ts); E2E_PORT_BASE moves them all. */
const base = Number(process.env.E2E_PORT_BASE ?? 3210);
export const PORTS = {
  app: base,
  smtp: base + 1,
  inbox: base + 2,
  calcom: base + 3,
  anthropic: base + 4,
  /** A second app server configured with the Cal.com stand-in. */
  calcomApp: base + 10,
} as const;
export const APP_URL = `http://localhost:${PORTS.app}`;
export const INBOX_URL = `http://127.0.0.1:${PORTS.inbox}`;
export const CALCOM_APP_URL = `http://localhost:${PORTS.calcomApp}`;
export const CALCOM_DATABASE_PATH = path.join(
  tmpdir(),
  `anfrage-e2e-${process.env.E2E_RUN_ID ?? "local"}-${base}`,
  "calcom",
  "e2e.sqlite",
);

/** The e2e run's fresh data folder (database + uploads), shared by the stack and the fixtures. */
export const E2E_DATA_DIR = path.join(
  tmpdir(),
  `anfrage-e2e-${process.env.E2E_RUN_ID ?? "local"}-${base}`,
);
export const E2E_DATABASE_PATH = path.join(E2E_DATA_DIR, "e2e.sqlite");
