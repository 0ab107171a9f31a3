import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "./env.server";

const base = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "env-test-"));
  return { DATABASE_PATH: path.join(dir, "db.sqlite"), dir };
};

describe("parseEnv", () => {
  it("applies the embedded defaults", () => {
    const { DATABASE_PATH } = base();
    const env = parseEnv({ DATABASE_PATH });
    expect(env.PORT).toBe(3000);
    expect(env.APP_URL).toBe("http://localhost:3000");
    expect(env.CALCOM_API_URL).toBe("https://api.cal.com/v2");
    expect(env.SUBMISSION_RATE_LIMIT).toEqual({ points: 10, durationSeconds: 3600 });
    expect(env.LOGIN_RATE_LIMIT).toEqual({ points: 5, durationSeconds: 900 });
    expect(env.SMTP_URL).toBeUndefined();
  });

  it("generates the session secret once and keeps it in the data directory", () => {
    const { DATABASE_PATH, dir } = base();
    const first = parseEnv({ DATABASE_PATH }).SESSION_SECRET;
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(parseEnv({ DATABASE_PATH }).SESSION_SECRET).toBe(first);
    // The go-live check tells a generated secret from one set in the environment.
    expect(parseEnv({ DATABASE_PATH }).SESSION_SECRET_FROM_ENV).toBe(false);
    expect(parseEnv({ DATABASE_PATH, SESSION_SECRET: "s" }).SESSION_SECRET_FROM_ENV).toBe(true);
    expect(readFileSync(path.join(dir, ".session-secret"), "utf8")).toBe(first);
  });

  it("names the variable of a bad value in one line", () => {
    const { DATABASE_PATH } = base();
    expect(() => parseEnv({ DATABASE_PATH, PORT: "abc" })).toThrow(EnvError);
    expect(() => parseEnv({ DATABASE_PATH, PORT: "abc" })).toThrow(
      /^Ungültige Konfiguration: PORT="abc"/,
    );
    expect(() => parseEnv({ DATABASE_PATH, SUBMISSION_RATE_LIMIT: "viele" })).toThrow(
      /SUBMISSION_RATE_LIMIT/,
    );
    expect(() => parseEnv({ DATABASE_PATH, APP_URL: "kein-url" })).toThrow(/APP_URL/);
  });

  it("takes an IMAP inbox URL and never echoes its password", () => {
    const { DATABASE_PATH } = base();
    expect(parseEnv({ DATABASE_PATH }).IMAP_URL).toBeUndefined();
    expect(parseEnv({ DATABASE_PATH }).IMAP_POLL_SECONDS).toBe(60);
    const url = "imaps://anfragen%40example.com:geheim@mail.example:993/INBOX";
    expect(parseEnv({ DATABASE_PATH, IMAP_URL: url }).IMAP_URL).toBe(url);
    for (const bad of ["https://u:geheim@mail.example/", "imaps://mail.example/INBOX"]) {
      expect(() => parseEnv({ DATABASE_PATH, IMAP_URL: bad })).toThrow(
        "Ungültige Konfiguration: IMAP_URL=(verborgen)",
      );
    }
  });

  it("parses rate limits and strips a trailing slash of APP_URL", () => {
    const { DATABASE_PATH } = base();
    const env = parseEnv({
      DATABASE_PATH,
      SUBMISSION_RATE_LIMIT: "3/2m",
      APP_URL: "https://anfragen.example/",
    });
    expect(env.SUBMISSION_RATE_LIMIT).toEqual({ points: 3, durationSeconds: 120 });
    expect(env.APP_URL).toBe("https://anfragen.example");
  });
});
