import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/** "10/1h" -> { points: 10, durationSeconds: 3600 } */
const rateLimitSpec = z
  .string()
  .regex(/^\d+\/\d+[smhd]$/, "erwartet z.B. 10/1h oder 5/15m")
  .transform((value) => {
    const [points, window] = value.split("/");
    const unit = window.slice(-1) as "s" | "m" | "h" | "d";
    const factor = { s: 1, m: 60, h: 3600, d: 86400 }[unit];
    return { points: Number(points), durationSeconds: Number(window.slice(0, -1)) * factor };
  });

const optionalUrl = z.preprocess((v) => (v === "" ? undefined : v), z.url().optional());
const optionalString = z.preprocess((v) => (v === "" ? undefined : v), z.string().optional());

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATABASE_PATH: z.string().min(1).default("db/data.sqlite"),
  UPLOADS_DIR: z.string().min(1).default("uploads"),
  SESSION_SECRET: optionalString,
  APP_URL: optionalUrl,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default("Anfrage-Portal <no-reply@localhost>"),
  CALCOM_API_KEY: optionalString,
  CALCOM_API_URL: z.url().default("https://api.cal.com/v2"),
  CALCOM_WEBHOOK_SECRET: optionalString,
  CALCOM_USERNAME: optionalString,
  ANTHROPIC_API_KEY: optionalString,
  ANTHROPIC_BASE_URL: optionalUrl,
  ANTHROPIC_MODEL: z.string().default("claude-sonnet-5"),
  // Voice transcription (ADR 272): an OpenAI-compatible base URL (…/v1); off when unset.
  TRANSCRIPTION_API_URL: optionalUrl,
  TRANSCRIPTION_API_KEY: optionalString,
  TRANSCRIPTION_MODEL: z.string().min(1).default("whisper-1"),
  // Replies from leads (ADR 285): the inbox polled for answers, e.g.
  // imaps://user:pass@host:993/INBOX (user and password URL-encoded); off when unset.
  IMAP_URL: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .url()
      .refine(
        (v) => /^imaps?:\/\/[^/@]+@[^/]/.test(v),
        "erwartet imaps://benutzer:passwort@host/INBOX",
      )
      .optional(),
  ),
  // The inbox's address (its plus-addresses are the Reply-To); default: the IMAP user, if an address.
  IMAP_ADDRESS: z.preprocess((v) => (v === "" ? undefined : v), z.email().optional()),
  IMAP_POLL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  ADMIN_USERNAME: optionalString,
  ADMIN_EMAIL: z.preprocess((v) => (v === "" ? undefined : v), z.email().optional()),
  ADMIN_PASSWORD: z.preprocess((v) => (v === "" ? undefined : v), z.string().min(8).optional()),
  PRIVACY_URL: z.url().default("https://example.com/datenschutz"),
  IMPRINT_URL: z.url().default("https://example.com/impressum"),
  GA_MEASUREMENT_ID: z.preprocess(
    (v) => (v === "" ? undefined : v),
    z
      .string()
      .regex(/^G-[A-Z0-9]+$/, "erwartet eine GA4-Mess-ID wie G-ABC123")
      .optional(),
  ),
  SUBMISSION_RATE_LIMIT: rateLimitSpec.default({ points: 10, durationSeconds: 3600 }),
  // The same per network (IPv4 /24, IPv6 /48: 256 clients of /56), beside the client's (ADR 322).
  SUBMISSION_NETWORK_RATE_LIMIT: rateLimitSpec.default({ points: 50, durationSeconds: 3600 }),
  // A session unused for this many hours ends (the hard end stays 30 days after the login).
  SESSION_IDLE_HOURS: z.coerce.number().int().min(1).max(720).default(12),
  LOGIN_RATE_LIMIT: rateLimitSpec.default({ points: 5, durationSeconds: 900 }),
  // Failed logins and reset requests per network (ADR 357); unset: five clients' worth of
  // LOGIN_RATE_LIMIT in its window (25/15m by default), so it never falls below the client's own.
  LOGIN_NETWORK_RATE_LIMIT: z.preprocess(
    (v) => (v === "" ? undefined : v),
    rateLimitSpec.optional(),
  ),
  BOOKING_RATE_LIMIT: rateLimitSpec.default({ points: 5, durationSeconds: 3600 }),
  BOOKING_NETWORK_RATE_LIMIT: rateLimitSpec.default({ points: 25, durationSeconds: 3600 }),
  // A visitor's slot look-ups (a day of the booking calendar; each may ask the team's calendars
  // and be a job of the calendar worker), per client and per network (ADR 356).
  SLOT_LOOKUP_RATE_LIMIT: rateLimitSpec.default({ points: 120, durationSeconds: 600 }),
  SLOT_LOOKUP_NETWORK_RATE_LIMIT: rateLimitSpec.default({ points: 600, durationSeconds: 600 }),
  TRUST_PROXY: z.enum(["", "fly", "none"]).default(""),
  LOG_LEVEL: z.enum(["silent", "error", "warn", "info", "debug"]).default("info"),
  // Read by server/launch.ts (Litestream, ADR 090); validated here so a typo stops the boot too.
  LITESTREAM_REPLICA_URL: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z
      .string()
      .regex(/^(file|s3):\/\/./, "erwartet file:///pfad oder s3://bucket/pfad")
      .optional(),
  ),
  BUCKET_NAME: optionalString,
  // Prometheus /metrics on this internal port (ADR 094); Litestream's own metrics on the next one.
  METRICS_PORT: z.coerce.number().int().min(0).max(65534).default(9091),
  // Where /metrics listens: loopback by default; on Fly (FLY_APP_NAME set) on "::" so Fly's
  // private network can scrape it. Never the public HOST by accident.
  METRICS_HOST: optionalString,
  // Requests worked on at once; more wait in a queue (memory on a 256 MB machine, ADR 195). 0 = no bound.
  MAX_CONCURRENT_REQUESTS: z.coerce.number().int().min(0).max(10_000).default(16),
  // Uploads one network (IPv4 /24, IPv6 /48) may send at once; more wait their turn (ADR 321,
  // third amendment). Unset: an eighth of MAX_CONCURRENT_REQUESTS (a quarter of the uploads' half).
  MAX_UPLOADS_PER_NETWORK: z.coerce.number().int().min(1).max(10_000).optional(),
  // Every request body must be in within this many seconds, else 408 (ADR 321): an upload just
  // above the minimum pace would otherwise hold its slot for hours. 900 s: 76 MB at ~90 kB/s.
  BODY_DEADLINE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(900),
  // Below this much free space on the data volume, submissions keep their text but refuse files.
  DISK_MIN_FREE_MB: z.coerce.number().int().min(0).default(256),
  // Read by `npm run backup` (scripts/backup.ts): how many backups stay, locally and in the bucket.
  BACKUP_KEEP: z.coerce.number().int().min(1).default(7),
  // Outgoing webhooks (ADR 141): the whole POST (connect, send, answer) must finish within this.
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // Opt-in for http and loopback webhook targets (tests, local receivers); off by default (ADR 143).
  WEBHOOK_ALLOW_LOCAL: z
    .enum(["", "true", "false", "1", "0"])
    .default("")
    .transform((v) => v === "true" || v === "1"),
  // Spam defence (ADR 250): `quarantine` holds submissions without a valid proof of work
  // or matching the blocklist; `off` accepts every submission as before (behind your own filter).
  SPAM_PROTECTION: z.enum(["quarantine", "off"]).default("quarantine"),
});

/** Variables whose value carries a password: an error names them without the value. */
const SECRET_VALUES = new Set(["IMAP_URL"]);

export type Env = z.infer<typeof EnvSchema> & {
  SESSION_SECRET: string;
  APP_URL: string;
  DATA_DIR: string;
  /** Whether SESSION_SECRET came from the environment (not the generated `.session-secret` file). */
  SESSION_SECRET_FROM_ENV: boolean;
};

export class EnvError extends Error {
  override name = "EnvError";
}

/**
 * The variables as configured, with their defaults, and nothing derived (no secret file written):
 * for the scripts and the launcher (`npm run backup`, `restore`, `db:migrate`,
 * `admin:reset-password`, server/launch.ts), which must agree with the server on every default.
 * Throws EnvError with one line naming the bad variable.
 */
export function readEnvVariables(source: NodeJS.ProcessEnv = process.env) {
  const result = EnvSchema.safeParse(source);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue.path[0] ?? "?");
    // A URL with a password is never echoed (the log keeps it).
    const shown = SECRET_VALUES.has(name) ? "(verborgen)" : JSON.stringify(source[name] ?? "");
    throw new EnvError(`Ungültige Konfiguration: ${name}=${shown} (${issue.message})`);
  }
  return result.data;
}

/** Parses process.env; throws EnvError with one line naming the bad variable. */
export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const env = readEnvVariables(source);
  const dataDir = path.dirname(path.resolve(env.DATABASE_PATH));
  return {
    ...env,
    DATA_DIR: dataDir,
    APP_URL: (env.APP_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ""),
    SESSION_SECRET: env.SESSION_SECRET ?? loadOrCreateSecret(dataDir),
    SESSION_SECRET_FROM_ENV: env.SESSION_SECRET !== undefined,
  };
}

/** A secret generated on first start and kept beside the database, so sessions survive restarts. */
function loadOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, ".session-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString("hex");
    try {
      writeFileSync(file, secret, { flag: "wx", mode: 0o600 });
      return secret;
    } catch {
      return readFileSync(file, "utf8").trim();
    }
  }
}

let cached: Env | undefined;

/** The validated environment of this process (parsed once). */
export function env(): Env {
  cached ??= parseEnv();
  return cached;
}

export const isProduction = () => env().NODE_ENV === "production";

/** Whether Litestream replicates the database (an explicit replica, or the bucket's default one). */
export const replicationOn = () => Boolean(env().LITESTREAM_REPLICA_URL || env().BUCKET_NAME);
