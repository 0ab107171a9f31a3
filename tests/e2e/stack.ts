// The e2e stack: a real SMTP server (with a small HTTP inbox for tests), loopback stand-ins for
// Cal.com and Anthropic, and the production server on a fresh database and uploads folder.
import { spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { startSmtpInbox } from "../smtp-inbox.ts";
import { E2E_DATA_DIR, E2E_DATABASE_PATH, PORTS } from "./ports.ts";
import { startAnthropicStandIn } from "./stand-ins/anthropic.ts";
import { startCalcomStandIn } from "./stand-ins/calcom.ts";

const { mails, close: closeSmtp } = await startSmtpInbox({ port: PORTS.smtp });

// GET /mails -> all received mails (tests filter by recipient); DELETE /mails clears.
createServer((req, res) => {
  if (req.method === "DELETE") mails.length = 0;
  res.setHeader("content-type", "application/json");
  res.end(JSON.stringify(mails));
}).listen(PORTS.inbox, "127.0.0.1");

await startCalcomStandIn(PORTS.calcom);
await startAnthropicStandIn(PORTS.anthropic);

const dir = E2E_DATA_DIR;
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
function startApp(
  port: number,
  databasePath: string,
  uploadsDir: string,
  extra: Record<string, string> = {},
) {
  return spawn(process.execPath, ["--max-semi-space-size=4", "server/index.ts"], {
    stdio: "inherit",
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
      METRICS_PORT: "0",
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: `http://localhost:${port}`,
      DATABASE_PATH: databasePath,
      UPLOADS_DIR: uploadsDir,
      SMTP_URL: `smtp://127.0.0.1:${PORTS.smtp}`,
      MAIL_FROM: "Anfrage-Portal <portal@example.com>",
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${PORTS.anthropic}`,
      ADMIN_USERNAME: "admin",
      ADMIN_EMAIL: "admin@example.com",
      ADMIN_PASSWORD: "erstes-passwort",
      SUBMISSION_RATE_LIMIT: "1000/1h",
      LOGIN_RATE_LIMIT: "1000/15m",
      ...extra,
    },
  });
}

// The main server uses the built-in scheduler; a second one talks to the Cal.com stand-in.
const app = startApp(PORTS.app, E2E_DATABASE_PATH, path.join(dir, "uploads"), {
  GA_MEASUREMENT_ID: "G-E2ETEST", // gtag.js itself is stubbed by the fixtures (no internet)
});
const calcomApp = startApp(
  PORTS.calcomApp,
  path.join(dir, "calcom", "e2e.sqlite"),
  path.join(dir, "calcom", "uploads"),
  {
    CALCOM_API_KEY: "cal_test_e2e",
    CALCOM_API_URL: `http://127.0.0.1:${PORTS.calcom}/v2`,
    // Without SMTP: invitations show their link to the inviting admin (fidelity.spec.ts).
    SMTP_URL: "",
  },
);
console.log(`e2e stack: data in ${dir}`);
const stop = () => {
  app.kill("SIGTERM");
  calcomApp.kill("SIGTERM");
  void closeSmtp();
  process.exit(0);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
app.on("exit", (code) => process.exit(code ?? 1));
calcomApp.on("exit", (code) => process.exit(code ?? 1));
