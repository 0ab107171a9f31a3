import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger, routeConsoleToLogger, scrub } from "../../server/logger.ts";

function capture(level = "info") {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(JSON.parse(String(chunk)));
      callback();
    },
  });
  return { lines, logger: createLogger({ level, destination }) };
}

describe("scrubbing personal data and secrets", () => {
  it("replaces e-mails, phone numbers, tokens, token links and credentials", () => {
    const token = "Xb3kP9qZ_r2LmN8vT4wY6uA1sD5fG7hJ0kQ-eRtYuI0";
    expect(scrub("Zustellung an Anna.Beispiel+x@example.co.uk fehlgeschlagen")).toBe(
      "Zustellung an [email] fehlgeschlagen",
    );
    expect(scrub("Rückruf: +49 30 98765432 oder 0221/5556667")).toBe(
      "Rückruf: [phone] oder [phone]",
    );
    expect(scrub("Tel. +49 (0) 170 1234567, (030) 1234567 oder 030 - 123 456")).toBe(
      "Tel. [phone], [phone] oder [phone]",
    );
    expect(scrub(`https://portal.test/admin/reset-password?token=${token}&x=1`)).toBe(
      "https://portal.test/admin/reset-password?token=[redacted]&x=1",
    );
    expect(scrub(`/api/admin/invitations/validate/${token}`)).toBe(
      "/api/admin/invitations/validate/[redacted]",
    );
    expect(scrub(`Authorization: Bearer ${token}`)).toBe("Authorization: Bearer [redacted]");
    expect(scrub("smtps://user:pass@smtp.example.com:465")).toBe(
      "smtps://[redacted]@smtp.example.com:465",
    );
    expect(scrub(`Sitzung ${token} abgelaufen`)).toBe("Sitzung [token] abgelaufen");
  });

  it("keeps ordinary numbers, ids and route patterns", () => {
    expect(scrub("Anfrage 42 mit 3 Dateien (1048576 Bytes) am 2026-11-23")).toBe(
      "Anfrage 42 mit 3 Dateien (1048576 Bytes) am 2026-11-23",
    );
    expect(scrub("/api/admin/invitations/validate/:token")).toBe(
      "/api/admin/invitations/validate/:token",
    );
  });
});

describe("the JSON logger", () => {
  it("scrubs messages, printf arguments, fields and errors; honours the level", () => {
    const { lines, logger } = capture("info");
    logger.info("Mail an %s gesendet", "lea@example.com");
    logger.error(
      { err: new Error("550 mailbox lea@example.com unavailable"), email: "x@example.com" },
      "Outbox",
    );
    logger.info({ user: { password: "geheim", name: "ok" } }, "Login");
    logger.debug("nicht sichtbar");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ level: "info", msg: "Mail an [email] gesendet" });
    expect(lines[1]).toMatchObject({
      level: "error",
      email: "[redacted]",
      err: { message: "550 mailbox [email] unavailable" },
    });
    expect(JSON.stringify(lines[1])).not.toContain("lea@example.com");
    expect(lines[2]).toMatchObject({ user: { password: "[redacted]", name: "ok" } });
  });

  it("turns console output into scrubbed JSON lines", () => {
    const { lines, logger } = capture();
    const original = { log: console.log, warn: console.warn, error: console.error };
    try {
      routeConsoleToLogger(logger);
      console.warn("Benachrichtigung fehlgeschlagen:", new Error("an tom@example.com"));
      console.log("gestartet auf Port", 3000);
    } finally {
      Object.assign(console, original);
    }
    expect(lines[0]).toMatchObject({
      level: "warn",
      msg: "Benachrichtigung fehlgeschlagen: an [email]",
      err: { message: "an [email]" },
    });
    expect(lines[1]).toMatchObject({ level: "info", msg: "gestartet auf Port 3000" });
  });
});
