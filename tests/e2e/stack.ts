// One e2e stack per Playwright worker (started by the worker fixture in tests/e2e/fixtures.ts): a
// real SMTP server, loopback stand-ins for Cal.com, Anthropic and transcription, and the production server on the
// worker's own database, uploads folder and ports. A second app server talking to the Cal.com
// stand-in starts only when a test asks for it. docs/decisions/072-e2e-server-per-worker.md
import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { runtimeArgs, runtimeEnv } from "../../server/runtime.ts";
import { type ImapStandIn, startImapStandIn } from "../imap-stand-in.ts";
import { startSmtpInbox } from "../smtp-inbox.ts";
import { startTranscriptionStandIn } from "../transcription-stand-in.ts";
import { dataDirFor, portsFor, type StackPorts } from "./ports.ts";
import { startAnthropicStandIn } from "./stand-ins/anthropic.ts";
import { startCalcomStandIn } from "./stand-ins/calcom.ts";

/** The first admin every app server creates from ADMIN_* (not forced to change the password). */
export const FIRST_ADMIN = {
  username: "admin",
  email: "admin@example.com",
  password: "erstes-passwort",
} as const;

export type AppServer = {
  url: string;
  /** Resolves when the process has exited (e.g. its port was taken). */
  exited: Promise<void>;
  databasePath: string;
  uploadsDir: string;
  /** The SMTP server it sends through ("" for none). */
  smtpUrl: string;
  stop: () => Promise<void>;
};

function startApp(
  ports: StackPorts,
  port: number,
  dir: string,
  extra: Record<string, string> = {},
): AppServer {
  const databasePath = path.join(dir, "e2e.sqlite");
  const uploadsDir = path.join(dir, "uploads");
  mkdirSync(dir, { recursive: true });
  // The production runtime (V8 flags, allocator) from the one place the launcher uses too.
  const child: ChildProcess = spawn(process.execPath, runtimeArgs("server/index.ts"), {
    stdio: ["ignore", "ignore", "inherit"],
    env: runtimeEnv({
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
      METRICS_PORT: "0",
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: `http://localhost:${port}`,
      DATABASE_PATH: databasePath,
      UPLOADS_DIR: uploadsDir,
      SMTP_URL: `smtp://127.0.0.1:${ports.smtp}`,
      MAIL_FROM: "Anfrage-Portal <portal@example.com>",
      ANTHROPIC_API_KEY: "test-key",
      ANTHROPIC_BASE_URL: `http://127.0.0.1:${ports.anthropic}`,
      TRANSCRIPTION_API_URL: `http://127.0.0.1:${ports.transcription}/v1`,
      ADMIN_USERNAME: FIRST_ADMIN.username,
      ADMIN_EMAIL: FIRST_ADMIN.email,
      ADMIN_PASSWORD: FIRST_ADMIN.password,
      SUBMISSION_RATE_LIMIT: "1000/1h",
      // Every visitor of a run is 127.0.0.1: one network for the per-network limits (ADR 322).
      SUBMISSION_NETWORK_RATE_LIMIT: "10000/1h",
      BOOKING_NETWORK_RATE_LIMIT: "10000/1h",
      SLOT_LOOKUP_RATE_LIMIT: "10000/10m",
      SLOT_LOOKUP_NETWORK_RATE_LIMIT: "100000/10m",
      LOGIN_RATE_LIMIT: "1000/15m",
      // Every spec books from 127.0.0.1 on the worker's one server; the limit itself is an
      // integration test (tests/integration/booking-rate-limit.test.ts), not one e2e specs share.
      BOOKING_RATE_LIMIT: "1000/1h",
      // The CalDAV spec's Radicale listens on loopback http (ADR 335's "local" policy).
      WEBHOOK_ALLOW_LOCAL: "true",
      ...extra,
    }),
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    url: `http://localhost:${port}`,
    exited,
    databasePath,
    uploadsDir,
    smtpUrl: extra.SMTP_URL ?? `smtp://127.0.0.1:${ports.smtp}`,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Polls /healthz until the server answers; fails when it exits or does not answer in time. */
async function waitUntilHealthy(server: AppServer, timeoutMs = 150_000) {
  const { url } = server;
  let exited = false;
  void server.exited.then(() => {
    exited = true;
  });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited) throw new Error(`e2e: the app server for ${url} exited during start`);
    try {
      if (
        (await (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).text()) ===
        "OK"
      )
        return;
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`e2e: ${url} did not become healthy`);
}

export type Stack = Awaited<ReturnType<typeof startStack>>;

export async function startStack(workerIndex: number) {
  const ports = portsFor(workerIndex);
  const dir = dataDirFor(workerIndex);
  rmSync(dir, { recursive: true, force: true });
  const inbox = await startSmtpInbox({ port: ports.smtp });
  const closeCalcom = await startCalcomStandIn(ports.calcom);
  const closeAnthropic = await startAnthropicStandIn(ports.anthropic);
  const transcription = await startTranscriptionStandIn({
    port: ports.transcription,
    text: () => "Hallo, wir sind eine Gärtnerei und brauchen eine App für Pflanzenabos.",
  });
  const app = startApp(ports, ports.app, dir, {
    GA_MEASUREMENT_ID: "G-E2ETEST", // gtag.js itself is stubbed by the fixtures (no internet)
  });
  try {
    await waitUntilHealthy(app);
  } catch (error) {
    // Never leave a half-started stack behind (its server would hold the port for the next worker).
    await app.stop();
    await Promise.all([inbox.close(), closeCalcom(), closeAnthropic(), transcription.close()]);
    throw error;
  }

  /** Starts an extra app server once and waits until it answers. */
  const extraApp = async (port: number, name: string, env: Record<string, string>) => {
    const server = startApp(ports, port, path.join(dir, name), env);
    try {
      await waitUntilHealthy(server);
    } catch (error) {
      await server.stop();
      throw error;
    }
    return server;
  };
  let calcomApp: Promise<AppServer> | undefined;
  let plainApp: Promise<AppServer> | undefined;
  let imapApp: Promise<{ server: AppServer; imap: ImapStandIn }> | undefined;
  return {
    ports,
    app,
    inbox,
    /** The transcription stand-in: every call it received (multipart fields and audio bytes). */
    transcription,
    /** The app server with the Cal.com provider (own database), started on first use. */
    calcomApp() {
      calcomApp ??= extraApp(ports.calcomApp, "calcom", {
        CALCOM_API_KEY: "cal_test_e2e",
        CALCOM_API_URL: `http://127.0.0.1:${ports.calcom}/v2`,
        // Without SMTP: invitations show their link to the inviting admin (fidelity.spec.ts).
        SMTP_URL: "",
      });
      return calcomApp;
    },
    /**
     * An app server as a fresh installation has it before the go-live check (own database): no
     * SMTP, no ANTHROPIC_API_KEY, and the default login limit (5 failures per 15 min), so a login
     * lock is reachable. Started on first use.
     */
    plainApp() {
      plainApp ??= extraApp(ports.plainApp, "plain", {
        SMTP_URL: "",
        ANTHROPIC_API_KEY: "",
        TRANSCRIPTION_API_URL: "",
        LOGIN_RATE_LIMIT: "5/15m",
      });
      return plainApp;
    },
    /**
     * An app server with replies by IMAP (ADR 285; own database): it polls a loopback
     * IMAP stand-in every second; submissions need no proof of work. Started on first use.
     */
    imapApp() {
      imapApp ??= (async () => {
        const imap = await startImapStandIn({ port: ports.imap });
        try {
          const server = await extraApp(ports.imapApp, "imap", {
            IMAP_URL: imap.url(),
            IMAP_POLL_SECONDS: "1",
            SPAM_PROTECTION: "off",
          });
          return { server, imap };
        } catch (error) {
          await imap.close();
          throw error;
        }
      })();
      return imapApp;
    },
    async stop() {
      await Promise.all([
        app.stop(),
        calcomApp?.then((s) => s.stop()),
        plainApp?.then((s) => s.stop()),
        imapApp?.then(async ({ server, imap }) => {
          await server.stop();
          await imap.close();
        }),
      ]);
      await Promise.all([inbox.close(), closeCalcom(), closeAnthropic(), transcription.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
