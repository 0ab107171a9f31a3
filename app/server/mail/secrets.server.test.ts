import { copyFileSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpInbox } from "~tests/smtp-inbox";

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
beforeAll(async () => {
  inbox = await startSmtpInbox();
  process.env.SMTP_URL = inbox.url;
});
afterAll(async () => {
  const { stopMailWorker } = await import("./outbox.server");
  await stopMailWorker();
  await inbox.close();
});

const token = `tok${Math.random().toString(36).slice(2)}XYZ`;
const link = `http://localhost/admin/reset-password?token=${token}`;

async function queueReset() {
  const { queueMail } = await import("./outbox.server");
  return queueMail({
    to: "admin@example.com",
    subject: "Passwort zurücksetzen",
    content: {
      paragraphs: ["Setzen Sie Ihr Passwort zurück."],
      action: { label: "Zurücksetzen", url: link },
    },
    kind: "password-reset",
  });
}

/** A copy of the database file as an attacker would take it (WAL folded in first). */
async function databaseCopy(): Promise<Buffer> {
  const { db } = await import("../platform/db.server");
  db().$client.pragma("wal_checkpoint(TRUNCATE)");
  const copy = `${process.env.DATABASE_PATH}.copy`;
  copyFileSync(process.env.DATABASE_PATH as string, copy);
  return readFileSync(copy);
}

describe("outbox secrets at rest", () => {
  it("a pending reset mail is encrypted: a copy of the database yields no link; the sent mail has it", async () => {
    const { getOutboxMail, processOutbox } = await import("./outbox.server");
    const queued = await queueReset();
    expect(queued.text.startsWith("enc:v1:")).toBe(true);
    const copy = await databaseCopy();
    expect(copy.includes(Buffer.from(token))).toBe(false);
    expect(copy.includes(Buffer.from("Setzen Sie Ihr Passwort"))).toBe(false);

    expect(await processOutbox()).toBe(1);
    expect(inbox.mails.at(-1)?.text).toContain(link);
    const stored = getOutboxMail(queued.id);
    expect(stored?.masked).toBe(true);
    expect(stored?.text).toContain("token=••••••");
    expect((await databaseCopy()).includes(Buffer.from(token))).toBe(false);
  });

  it("mails without links stay readable", async () => {
    const { queueMail } = await import("./outbox.server");
    const plain = queueMail({
      to: "a@example.com",
      subject: "Hallo",
      kind: "two-factor-notice",
      content: { paragraphs: ["Nur Text."] },
    });
    expect(plain.text).toContain("Nur Text.");
  });

  it("wipes unsent secrets once their link expired (injected clock)", async () => {
    const { SECRET_LINK_TTL_MS, getOutboxMail, wipeExpiredSecrets, retryMail } = await import(
      "./outbox.server"
    );
    const queued = await queueReset();
    expect(wipeExpiredSecrets(new Date(Date.now() + 60_000))).toBe(0);
    expect(wipeExpiredSecrets(new Date(Date.now() + SECRET_LINK_TTL_MS + 60_000))).toBe(1);
    const wiped = getOutboxMail(queued.id);
    expect(wiped).toMatchObject({ status: "failed", masked: true });
    expect(wiped?.text.startsWith("enc:")).toBe(false);
    expect(wiped?.text).not.toContain(token);
    expect(retryMail(queued.id)).toBe(false);
    expect((await databaseCopy()).includes(Buffer.from(token))).toBe(false);
  });
});
