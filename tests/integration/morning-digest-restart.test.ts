// The morning digest across a crash and a restart (ADR 352): real server processes on one
// database, each started at a fake moment (tests/fake-clock.ts) so their own boot tick runs the
// job. The first process crashes halfway — the mail insert for one admin fails (a trigger stands
// in for the fault) and the process is killed with SIGKILL — after the others' digests were
// queued; the restarted process sends only the missing one. Every admin gets exactly one digest
// that day, in the outbox and through SMTP.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashPassword } from "~/server/platform/crypto.server";
import { startSmtpInbox } from "../smtp-inbox";

let smtp: Awaited<ReturnType<typeof startSmtpInbox>>;
beforeAll(async () => {
  smtp = await startSmtpInbox();
});
afterAll(async () => {
  await smtp.close();
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function startServer(env: Record<string, string>) {
  const child: ChildProcess = spawn(
    process.execPath,
    ["--import", "./tests/fake-clock.ts", "server/index.ts"],
    {
      env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", ...env },
      stdio: ["ignore", "ignore", "inherit"],
    },
  );
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    exited,
    stop: (signal: NodeJS.Signals = "SIGTERM") => {
      child.kill(signal);
      return exited;
    },
  };
}

async function waitForHealth(url: string) {
  await expect
    .poll(
      () =>
        fetch(`${url}/healthz`).then(
          async (r) => r.ok && (await r.text()) === "OK",
          () => false,
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
}

describe("the morning digest across a crash and a restart", () => {
  it("a crash after some admins' digests: the restart sends the rest, nobody gets two", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "digest-"));
    const databasePath = path.join(dir, "data.sqlite");
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      APP_URL: url,
      DATABASE_PATH: databasePath,
      UPLOADS_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "digest-restart-secret",
      ADMIN_USERNAME: "admin",
      ADMIN_EMAIL: "admin@example.com",
      ADMIN_PASSWORD: "admin-passwort",
      SMTP_URL: smtp.url,
      SPAM_PROTECTION: "off",
      TRANSCRIPTION_API_URL: "",
      ANTHROPIC_API_KEY: "",
      LOG_LEVEL: "error",
    };
    // Sunday: the database is created and migrated; no digest is due.
    const setup = startServer({ ...env, FAKE_NOW: "2027-03-07T10:00:00Z" });
    await waitForHealth(url);
    expect(await setup.stop()).toBe(0);

    const db = new Database(databasePath);
    db.pragma("busy_timeout = 5000");
    const sql = (query: string, ...params: unknown[]) => db.prepare(query).run(...params);
    const hash = await hashPassword("ein-langes-passwort");
    const admin = (name: string) =>
      Number(
        sql(
          "INSERT INTO admins (username, email, password_hash, password_changed) VALUES (?, ?, ?, 1)",
          name,
          `${name}@example.com`,
          hash,
        ).lastInsertRowid,
      );
    const ids = { anna: admin("anna"), ben: admin("ben"), carl: admin("carl") };
    for (const [name, id] of Object.entries(ids)) {
      const request = Number(
        sql(
          "INSERT INTO requests (name, email, phone, company_description) VALUES (?, ?, '+49 30 1', 'Firma')",
          `Kunde von ${name}`,
          `kunde.${name}@example.com`,
        ).lastInsertRowid,
      );
      sql(
        "INSERT INTO follow_ups (request_id, admin_id, due_day, text) VALUES (?, ?, '2027-03-05', 'Nachfassen')",
        request,
        id,
      );
    }
    // The fault: queueing Ben's mail fails (as a crash at that moment would leave it unwritten).
    db.exec(`CREATE TRIGGER digest_fault BEFORE INSERT ON mail_outbox
      WHEN NEW."to" = 'ben@example.com' AND NEW.kind = 'morning-digest'
      BEGIN SELECT RAISE(ABORT, 'Absturz beim Versand'); END`);
    const runs = () =>
      db
        .prepare("SELECT admin_id AS id, outcome FROM digest_runs WHERE day = '2027-03-08'")
        .all() as { id: number; outcome: string }[];
    const queuedFor = () =>
      (
        db
          .prepare('SELECT "to" FROM mail_outbox WHERE kind = \'morning-digest\' ORDER BY "to"')
          .all() as { to: string }[]
      ).map((m) => m.to);

    try {
      // Monday 07:45: the boot tick works through the admins in id order (anna, ben, carl). Its
      // mail server is down, so nothing leaves before the crash (delivery is the outbox's job).
      const first = startServer({
        ...env,
        SMTP_URL: "smtp://127.0.0.1:1",
        FAKE_NOW: "2027-03-08T06:45:00Z",
      });
      await waitForHealth(url);
      // Carl's digest is written after Ben's attempt: once it is there, the tick is past Ben.
      await expect.poll(() => runs().map((r) => r.id), { timeout: 30_000 }).toContain(ids.carl);
      await first.stop("SIGKILL");
      expect(runs().map((r) => r.id)).not.toContain(ids.ben);
      expect(queuedFor()).toEqual(["anna@example.com", "carl@example.com"]);

      // The fault is gone; the restarted process (a little later the same morning) sends Ben's.
      db.exec("DROP TRIGGER digest_fault");
      const second = startServer({ ...env, FAKE_NOW: "2027-03-08T06:50:00Z" });
      try {
        await waitForHealth(url);
        await expect.poll(() => runs().map((r) => r.id), { timeout: 30_000 }).toContain(ids.ben);
        expect(queuedFor()).toEqual(["anna@example.com", "ben@example.com", "carl@example.com"]);
        // Every digest reaches the inbox, Ben's too: one each.
        for (const name of ["anna", "ben", "carl"])
          await smtp.waitFor(`${name}@example.com`, /Ihre Übersicht für heute: 1 Wiedervorlage/);
        const outcomes = Object.fromEntries(runs().map((r) => [r.id, r.outcome]));
        expect(outcomes).toMatchObject({
          [ids.anna]: "queued",
          [ids.ben]: "queued",
          [ids.carl]: "queued",
        });
      } finally {
        expect(await second.stop()).toBe(0);
      }
      // A third start that day: only an admin added since gets one; nobody a second.
      const dana = admin("dana");
      const later = Number(
        sql(
          "INSERT INTO requests (name, email, phone, company_description) VALUES ('Kunde von dana', 'kunde.dana@example.com', '+49 30 1', 'Firma')",
        ).lastInsertRowid,
      );
      sql(
        "INSERT INTO follow_ups (request_id, admin_id, due_day) VALUES (?, ?, '2027-03-08')",
        later,
        dana,
      );
      const third = startServer({ ...env, FAKE_NOW: "2027-03-08T09:00:00Z" });
      try {
        await waitForHealth(url);
        await expect.poll(() => runs().map((r) => r.id), { timeout: 30_000 }).toContain(dana);
        await smtp.waitFor("dana@example.com", /Ihre Übersicht für heute: 1 Wiedervorlage/);
      } finally {
        expect(await third.stop()).toBe(0);
      }
      expect(queuedFor()).toEqual([
        "anna@example.com",
        "ben@example.com",
        "carl@example.com",
        "dana@example.com",
      ]);
      const delivered = smtp.mails.filter((m) => /Ihre Übersicht für heute/.test(m.subject));
      expect(delivered.map((m) => m.to[0]).sort()).toEqual([
        "anna@example.com",
        "ben@example.com",
        "carl@example.com",
        "dana@example.com",
      ]);
    } finally {
      db.close();
    }
  }, 180_000);
});
