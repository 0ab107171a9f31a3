// Replies by IMAP survive a restart (ADR 285): two real server processes on one
// database, polling a loopback IMAP stand-in every second. The first files a reply; after the
// restart the second resumes after the last UID it remembered (job_runs): the new reply is filed,
// the old one is neither filed twice nor fetched again, nor is the unmatched mail read again.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ImapStandIn, startImapStandIn } from "../imap-stand-in";
import { startSmtpInbox } from "../smtp-inbox";
import { multipart, validFields } from "./landing-fixtures";

let smtp: Awaited<ReturnType<typeof startSmtpInbox>>;
let imap: ImapStandIn;
beforeAll(async () => {
  smtp = await startSmtpInbox();
  imap = await startImapStandIn();
});
afterAll(async () => {
  await smtp.close();
  await imap.close();
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
  const child: ChildProcess = spawn(process.execPath, ["server/index.ts"], {
    env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    exited,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

async function waitForHealth(url: string) {
  await expect
    .poll(
      () =>
        fetch(`${url}/healthz`).then(
          // "Startet" (200) while booting; the app answers once it says "OK".
          async (r) => r.ok && (await r.text()) === "OK",
          () => false,
        ),
      { timeout: 30_000 },
    )
    .toBe(true);
}

const rfc822 = (h: Record<string, string>, body: string) =>
  `${Object.entries({ Date: new Date().toUTCString(), ...h })
    .map(([k, v]) => `${k}: ${v}`)
    .join("\n")}\n\n${body}\n`;

describe("the IMAP poller across a restart", () => {
  it("resumes after the last UID: no duplicates, nothing fetched twice", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "imap-"));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      PORT: String(port),
      APP_URL: url,
      DATABASE_PATH: path.join(dir, "data.sqlite"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "imap-restart-secret",
      ADMIN_USERNAME: "admin",
      ADMIN_EMAIL: "admin@example.com",
      ADMIN_PASSWORD: "admin-passwort",
      SMTP_URL: smtp.url,
      IMAP_URL: imap.url(),
      IMAP_POLL_SECONDS: "1",
      SPAM_PROTECTION: "off",
      TRANSCRIPTION_API_URL: "",
      ANTHROPIC_API_KEY: "",
      LOG_LEVEL: "error",
    };
    const first = startServer(env);
    try {
      await waitForHealth(url);
      const login = await fetch(`${url}/api/admin/auth/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: "admin", password: "admin-passwort" }),
      });
      const { token } = (await login.json()) as { token: string };
      const api = (p: string, init: RequestInit = {}) =>
        fetch(url + p, {
          ...init,
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        });
      const form = multipart(
        validFields({ name: "Rosa Restart", email: "rosa.restart@example.com" }),
      );
      const created = await fetch(`${url}/api/requests`, { method: "POST", body: form });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      const sent = await api(`/api/admin/requests/${id}/messages`, {
        method: "POST",
        body: JSON.stringify({ subject: "Rückfrage Rosa", body: "Wann öffnet ihr?" }),
      });
      expect(sent.status).toBe(201);
      const mail = await smtp.waitFor("rosa.restart@example.com", /Rückfrage Rosa/);
      const replyTo = mail.replyTo[0] as string;
      const thread = async () =>
        (
          (await (await api(`/api/admin/requests/${id}`)).json()) as {
            messages: { direction: string; body: string }[];
          }
        ).messages
          .filter((m) => m.direction === "in")
          .map((m) => m.body);

      const one = imap.add(
        rfc822(
          {
            From: "rosa.restart@example.com",
            To: replyTo,
            Subject: "Re: 1",
            "Message-ID": "<r1@x>",
          },
          "Um sieben.",
        ),
      );
      const spam = imap.add(
        rfc822({ From: "x@example.net", To: "antworten@example.com", Subject: "Werbung" }, "Kauf!"),
      );
      await expect.poll(thread, { timeout: 15_000 }).toEqual(["Um sieben."]);
      // The unmatched mail was looked at too (the poll goes on after it) before the restart.
      await expect
        .poll(() => imap.commands.some((c) => c.startsWith(`UID FETCH ${spam} `)), {
          timeout: 15_000,
        })
        .toBe(true);
      expect(await first.stop()).toBe(0);

      const mark = imap.commands.length;
      imap.add(
        rfc822(
          {
            From: "rosa.restart@example.com",
            To: replyTo,
            Subject: "Re: 2",
            "Message-ID": "<r2@x>",
          },
          "Und sonntags zu.",
        ),
      );
      const second = startServer(env);
      try {
        await waitForHealth(url);
        await expect.poll(thread, { timeout: 15_000 }).toEqual(["Um sieben.", "Und sonntags zu."]);
        const after = imap.commands.slice(mark);
        expect(after.filter((c) => c.startsWith(`UID FETCH ${one} `))).toEqual([]);
        expect(after.filter((c) => c.startsWith(`UID FETCH ${spam} `))).toEqual([]);
      } finally {
        await second.stop();
      }
    } finally {
      await first.stop();
    }
  }, 90_000);
});
