/** Loopback ports of the e2e stack (tests/e2e/stack.ts). */
export const PORTS = {
  app: 3210,
  smtp: 3211,
  inbox: 3212,
  calcom: 3213,
  anthropic: 3214,
} as const;
export const APP_URL = `http://localhost:${PORTS.app}`;
export const INBOX_URL = `http://127.0.0.1:${PORTS.inbox}`;
