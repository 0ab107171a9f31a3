// Structured logs (pino, ADR 095): one JSON object per line; pretty output only in development.
// Self-contained (no app imports) so both the Express server and the app bundle use it.
// No personal data and no secrets: e-mail addresses, phone numbers, tokens, passwords and token links
// are replaced in every message, error and field before the line is written.
import { format } from "node:util";
import pino, { type Logger } from "pino";

const LEVELS = ["silent", "fatal", "error", "warn", "info", "debug", "trace"] as const;
export type LogLevel = (typeof LEVELS)[number];

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;
// International (+49 …) or national (0…, (0…) numbers with at least 6 further digits; up to three
// separators between digits, as the form accepts them ("+49 (0) 170 …", "030 - 123 456").
const PHONE = /(?<![\p{L}\p{N}])(?:\+|00|\(?0)\d(?:[\s/().-]{0,3}\d){5,}(?![\p{L}\p{N}])/gu;
const TOKEN_PARAM = /([?&;](?:token|code|key|secret|signature|password)=)[^&\s"'<>]+/gi;
const AUTH_HEADER = /\b(Bearer|Basic)\s+[\w.~+/=-]+/gi;
const URL_CREDENTIALS = /(\b[a-z][\w+.-]*:\/\/)[^/\s:@]+:[^/\s@]+@/gi;
// Long random strings (session/invitation/reset tokens are 43 base64url characters, hashes 64 hex).
const LONG_TOKEN = /(?<![\w-])[A-Za-z0-9_-]{32,}(?![\w-])/g;
// `… path segment /<token>` after the token routes (invitation validate, reset, activation links).
const TOKEN_PATH =
  /(\/(?:validate|reset-password|register|activate|einladung|invitation)\/)[^/\s?"':][^/\s?"']*/gi;

/** Replaces personal data and secrets in a text. */
export function scrub(text: string): string {
  return text
    .replace(URL_CREDENTIALS, "$1[redacted]@")
    .replace(TOKEN_PARAM, "$1[redacted]")
    .replace(AUTH_HEADER, "$1 [redacted]")
    .replace(TOKEN_PATH, "$1[redacted]")
    .replace(EMAIL, "[email]")
    .replace(LONG_TOKEN, "[token]")
    .replace(PHONE, "[phone]");
}

const SECRET_KEYS =
  /^(password|newPassword|oldPassword|passwordHash|token|secret|authorization|cookie|set-cookie|email|phone|apiKey)$/i;

/** A deep copy with strings scrubbed and secret-named keys replaced (bounded depth, no cycles). */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === "string") return scrub(value);
  if (value === null || typeof value !== "object" || depth > 4) return value;
  if (value instanceof Error) {
    return {
      type: value.name,
      message: scrub(value.message),
      stack: value.stack ? scrub(value.stack) : undefined,
      code: (value as { code?: unknown }).code,
    };
  }
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => scrubValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = SECRET_KEYS.test(key) ? "[redacted]" : scrubValue(v, depth + 1);
  }
  return out;
}

export type LoggerOptions = {
  level?: string;
  pretty?: boolean;
  destination?: pino.DestinationStream;
};

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = LEVELS.includes(options.level as LogLevel) ? (options.level as LogLevel) : "info";
  const config: pino.LoggerOptions = {
    level,
    base: undefined,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => scrubValue(object) as Record<string, unknown>,
    },
    hooks: {
      // Messages (including printf-style arguments) are formatted, then scrubbed.
      logMethod(args, method) {
        const [first, ...rest] = args as unknown[];
        if (typeof first === "string") {
          return method.call(this, scrub(format(first, ...rest)));
        }
        if (rest.length > 0) {
          const [message, ...more] = rest;
          return method.call(this, first as object, scrub(format(message, ...more)));
        }
        return method.apply(this, args);
      },
    },
    serializers: { err: (error: unknown) => scrubValue(error) },
  };
  if (options.destination) return pino(config, options.destination);
  if (options.pretty) {
    return pino({ ...config, transport: { target: "pino-pretty", options: { colorize: true } } });
  }
  return pino(config);
}

/** The process logger: LOG_LEVEL honoured, pretty only when NODE_ENV is development (or unset). */
export const logger: Logger = createLogger({
  level: process.env.LOG_LEVEL,
  pretty: (process.env.NODE_ENV ?? "development") === "development",
});

/** Routes console.log/info/warn/error/debug of this process through the logger (one JSON line each). */
export function routeConsoleToLogger(target: Logger = logger) {
  const write =
    (level: "info" | "warn" | "error" | "debug") =>
    (...args: unknown[]) => {
      const error = args.find((a) => a instanceof Error);
      const text = format(...args.map((a) => (a instanceof Error ? a.message : a)));
      if (error) target[level]({ err: error }, text);
      else target[level](text);
    };
  console.log = write("info");
  console.info = write("info");
  console.warn = write("warn");
  console.error = write("error");
  console.debug = write("debug");
}
