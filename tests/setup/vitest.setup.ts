import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach } from "vitest";

// Every test file gets its own SQLite file and uploads folder (modules are isolated per file).
const dir = mkdtempSync(path.join(tmpdir(), "anfrage-test-"));
process.env.DATABASE_PATH = path.join(dir, "test.sqlite");
process.env.UPLOADS_DIR = path.join(dir, "uploads");
process.env.NODE_ENV = "test";
process.env.LOG_LEVEL = "silent";
process.env.METRICS_PORT = "0";
process.env.SESSION_SECRET = "test-secret";
process.env.ADMIN_USERNAME ??= "admin";
process.env.ADMIN_PASSWORD ??= "admin-passwort";
process.env.ADMIN_EMAIL ??= "admin@example.com";
for (const key of ["SMTP_URL", "CALCOM_API_KEY", "ANTHROPIC_API_KEY", "GA_MEASUREMENT_ID"])
  delete process.env[key];

// A console.error during a test fails it: errors must be expected and asserted, not printed.
let consoleErrors: unknown[][] = [];
const originalError = console.error;
beforeEach(() => {
  consoleErrors = [];
  console.error = (...args: unknown[]) => {
    consoleErrors.push(args);
    originalError(...args);
  };
});
afterEach(() => {
  console.error = originalError;
  if (consoleErrors.length > 0) {
    throw new Error(
      `console.error was called during the test: ${consoleErrors.map((a) => a.join(" ")).join("\n")}`,
    );
  }
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});
