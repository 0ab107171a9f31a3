// One crash round against the real production server (server/index.ts on $BUILD_DIR): N concurrent
// submissions with attachments, kill -9 after `killAfter` answers, restart on the same data, then
// check every acknowledged (201) submission and that the uploads folder holds nothing else.
// Used by tests/integration/upload-crash.test.ts and `npm run bench:crash`.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";

export type CrashResult = {
  sent: number;
  answered: number;
  acknowledged: number;
  /** Acknowledged submissions found in the database with every file byte-identical. */
  stored: number;
  /** Files under UPLOADS_DIR no row refers to (incoming parts, temp files, orphans). */
  leftover: string[];
  /** The same count right after the kill, before the restart's sweep (what the crash left). */
  leftoverBeforeRestart: number;
  integrity: boolean;
};

function startServer(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["server/index.ts"], {
    stdio: ["ignore", "ignore", "pipe"],
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_PATH: path.join(dir, "crash.sqlite"),
      UPLOADS_DIR: path.join(dir, "uploads"),
      SESSION_SECRET: "crash-secret",
      ADMIN_USERNAME: "admin",
      ADMIN_PASSWORD: "crash-passwort",
      ADMIN_EMAIL: "admin@example.com",
      SUBMISSION_RATE_LIMIT: "10000/1h",
      LOG_LEVEL: "error",
      METRICS_PORT: "0",
      LITESTREAM_REPLICA_URL: "",
      BUCKET_NAME: "",
    },
  });
  child.stderr?.resume();
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = async () => {
      if (child.exitCode !== null) return reject(new Error(`Server beendet (${child.exitCode})`));
      try {
        if ((await (await fetch(`http://127.0.0.1:${port}/healthz`)).text()) === "OK")
          return resolve(child);
      } catch {}
      if (Date.now() > deadline) return reject(new Error("Server nicht innerhalb 60 s gestartet"));
      setTimeout(poll, 100); // readiness poll, not a synchronisation sleep
    };
    void poll();
  });
}

function stop(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise((r) => child.once("exit", r));
  child.kill(signal);
  return exited;
}

/** A PDF the content sniffing accepts, with random bytes so every file differs. */
function pdf(size: number) {
  const head = Buffer.from("%PDF-1.4\n1 0 obj\n<<>>\nendobj\n");
  return Buffer.concat([head, randomBytes(size), Buffer.from("\n%%EOF\n")]);
}

type Sent = { files: Map<string, Buffer> };
type Acked = { id: number; files: { filename: string; originalName: string }[]; sent: Sent };

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

const hashPath = (key: string) => {
  const h = createHash("sha256").update(key).digest("hex");
  return path.join("files", h.slice(0, 2), h);
};

export async function crashRound(
  options: { port: number; submissions?: number; killAfter?: number; fileBytes?: number } = {
    port: 4400,
  },
): Promise<CrashResult> {
  const { port, submissions = 60, killAfter = 20, fileBytes = 256 * 1024 } = options;
  const dir = mkdtempSync(path.join(tmpdir(), "anfrage-crash-"));
  const uploads = path.join(dir, "uploads");
  try {
    let child = await startServer(port, dir);
    let answered = 0;
    const acked: Acked[] = [];
    let killed: Promise<unknown> | undefined;
    const submit = async (i: number) => {
      const sent: Sent = { files: new Map() };
      const form = new FormData();
      form.set("name", `Crash Test ${i}`);
      form.set("email", `crash.${i}.${randomBytes(3).toString("hex")}@example.com`);
      form.set("phone", "+49 221 123456");
      form.set("companyDescription", "Wir sind eine Bäckerei mit fünf Filialen in Köln.");
      form.set("description", "Eine App, mit der Kundinnen Brötchen vorbestellen können.");
      for (let f = 0; f < 2; f += 1) {
        const name = `anlage-${i}-${f}.pdf`;
        const bytes = pdf(fileBytes + f * 1000);
        sent.files.set(name, bytes);
        form.append("attachments", new Blob([new Uint8Array(bytes)]), name);
      }
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/requests`, {
          method: "POST",
          body: form,
        });
        const body = (await res.json()) as { id: number; attachments: Acked["files"] };
        if (res.status === 201) acked.push({ id: body.id, files: body.attachments, sent });
      } catch {
        // Connection cut by the kill: not acknowledged.
      } finally {
        answered += 1;
        if (answered === killAfter) killed = stop(child, "SIGKILL");
      }
    };
    await Promise.all(Array.from({ length: submissions }, (_, i) => submit(i)));
    await (killed ?? stop(child, "SIGKILL"));
    const afterKill = listFiles(uploads);

    // Restart on the same data: the boot sweep runs before the server listens.
    child = await startServer(port, dir);
    await stop(child, "SIGTERM");

    const db = new Database(path.join(dir, "crash.sqlite"), { readonly: true });
    const referenced = new Set<string>();
    for (const row of db.prepare("select filename from attachments").all() as {
      filename: string;
    }[]) {
      referenced.add(`${hashPath(row.filename)}.dat`);
      referenced.add(`${hashPath(row.filename)}.meta.json`);
    }
    for (const row of db
      .prepare("select audio_key as k from requests where audio_key is not null")
      .all() as { k: string }[]) {
      referenced.add(`${hashPath(row.k)}.dat`);
      referenced.add(`${hashPath(row.k)}.meta.json`);
    }
    const byRequest = db.prepare("select filename from attachments where request_id = ?");
    const exists = db.prepare("select 1 from requests where id = ?");
    let stored = 0;
    for (const a of acked) {
      if (!exists.get(a.id)) continue;
      const rows = byRequest.all(a.id) as { filename: string }[];
      const ok =
        rows.length === a.sent.files.size &&
        a.files.every((f) => {
          const file = path.join(uploads, `${hashPath(f.filename)}.dat`);
          const expected = a.sent.files.get(f.originalName);
          return (
            rows.some((r) => r.filename === f.filename) &&
            expected !== undefined &&
            existsSync(file) &&
            readFileSync(file).equals(expected)
          );
        });
      if (ok) stored += 1;
    }
    db.close();
    const leftover = listFiles(uploads).filter((f) => !referenced.has(f));
    return {
      sent: submissions,
      answered,
      acknowledged: acked.length,
      stored,
      leftover,
      leftoverBeforeRestart: afterKill.filter((f) => !referenced.has(f)).length,
      integrity: stored === acked.length && leftover.length === 0,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
