import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A real CalDAV server for tests (ADR 335): Debian's `radicale` (3.1.8: calendar-query,
 * calendar-multiget, sync-collection; no free-busy-query, no server-side expand) on a loopback
 * port with a throwaway folder and htpasswd (plain) users. Started and stopped here; readiness
 * is read from its log ("Listening on …", "Radicale server ready") and then polled with a request
 * until it answers — no sleeps. `.ci/run` installs the package when missing.
 */
export type Radicale = {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  port: number;
  /** A user's calendar collection URL (with trailing slash). */
  calendarUrl: (user: string, calendar: string) => string;
  /** MKCALENDAR with a display name (VEVENT only). */
  makeCalendar: (user: string, calendar: string, name?: string) => Promise<void>;
  /** PUT an iCalendar object (its text as is); returns the ETag. */
  putObject: (user: string, calendar: string, name: string, ics: string) => Promise<string | null>;
  deleteObject: (user: string, calendar: string, name: string) => Promise<number>;
  /** Every object of a calendar: its href and text (a Depth-1 calendar-query without filter). */
  objects: (user: string, calendar: string) => Promise<{ href: string; text: string }[]>;
  /** A user's new password (htpasswd is read at every login): the old app password stops working. */
  setPassword: (user: string, password: string) => void;
  /** Kill the process (the server is down) / start it again on the same port and folder. */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** SIGSTOP / SIGCONT: connections are accepted but nothing answers (the server is slow). */
  freeze: () => void;
  thaw: () => void;
  close: () => Promise<void>;
};

const auth = (user: string, pass: string) =>
  `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;

export async function startRadicale(
  users: Record<string, string> = { lea: "app-passwort-1" },
): Promise<Radicale> {
  const dir = mkdtempSync(path.join(tmpdir(), "radicale-"));
  const usersFile = path.join(dir, "users");
  const writeUsers = () =>
    writeFileSync(
      usersFile,
      `${Object.entries(users)
        .map(([u, p]) => `${u}:${p}`)
        .join("\n")}\n`,
    );
  writeUsers();
  let port = 0;
  let child: ChildProcess | undefined;
  const writeConfig = () => {
    const config = path.join(dir, "config");
    writeFileSync(
      config,
      [
        "[server]",
        `hosts = 127.0.0.1:${port}`,
        "[auth]",
        "type = htpasswd",
        `htpasswd_filename = ${usersFile}`,
        "htpasswd_encryption = plain",
        "delay = 0",
        "[rights]",
        "type = owner_only",
        "[storage]",
        `filesystem_folder = ${path.join(dir, "collections")}`,
        "[logging]",
        "level = info",
        "mask_passwords = True",
        "",
      ].join("\n"),
    );
    return config;
  };

  const launch = () =>
    new Promise<void>((resolve, reject) => {
      const proc = spawn("radicale", ["--config", writeConfig()], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = proc;
      let log = "";
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        const listening = /Listening on '\[?[^\]']+\]?:(\d+)'/.exec(log);
        if (listening) port = Number(listening[1]);
        if (port && log.includes("Radicale server ready")) {
          proc.stderr?.off("data", onData);
          proc.stdout?.off("data", onData);
          proc.stderr?.resume();
          proc.stdout?.resume();
          resolve();
        }
      };
      proc.stderr?.on("data", onData);
      proc.stdout?.on("data", onData);
      proc.once("exit", (code) =>
        reject(new Error(`radicale exited (${code}): ${log.slice(-500)}`)),
      );
      proc.once("error", reject);
    });

  const base = () => `http://127.0.0.1:${port}`;
  const call = (user: string, url: string, init: RequestInit) =>
    fetch(url, {
      ...init,
      headers: { authorization: auth(user, users[user] ?? ""), ...(init.headers ?? {}) },
    });

  /** Polls until the server answers a request (it may still be binding after the log line). */
  const answers = async () => {
    for (let i = 0; i < 200; i++) {
      try {
        const res = await fetch(`${base()}/.well-known/caldav`, { redirect: "manual" });
        await res.arrayBuffer();
        return;
      } catch {
        await new Promise((r) => setImmediate(r));
      }
    }
    throw new Error("radicale does not answer");
  };

  await launch();
  await answers();
  // Radicale creates a user's principal collection on the first authenticated request.
  for (const user of Object.keys(users))
    await (
      await call(user, `${base()}/${user}/`, { method: "PROPFIND", headers: { depth: "0" } })
    ).text();

  const calendarUrl = (user: string, calendar: string) => `${base()}/${user}/${calendar}/`;
  const radicale: Radicale = {
    get url() {
      return base();
    },
    get port() {
      return port;
    },
    calendarUrl,
    async makeCalendar(user, calendar, name = calendar) {
      const res = await call(user, calendarUrl(user, calendar), {
        method: "MKCALENDAR",
        headers: { "content-type": "application/xml" },
        body: `<?xml version="1.0"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>${name}</d:displayname><c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set></d:prop></d:set></c:mkcalendar>`,
      });
      await res.text();
      if (res.status !== 201) throw new Error(`MKCALENDAR ${res.status}`);
    },
    async putObject(user, calendar, name, ics) {
      const res = await call(user, `${calendarUrl(user, calendar)}${name}`, {
        method: "PUT",
        headers: { "content-type": "text/calendar; charset=utf-8" },
        body: ics.replace(/\r?\n/g, "\r\n"),
      });
      await res.text();
      if (res.status >= 300) throw new Error(`PUT ${res.status}`);
      return res.headers.get("etag");
    },
    async deleteObject(user, calendar, name) {
      const res = await call(user, `${calendarUrl(user, calendar)}${name}`, { method: "DELETE" });
      await res.text();
      return res.status;
    },
    async objects(user, calendar) {
      const res = await call(user, calendarUrl(user, calendar), {
        method: "REPORT",
        headers: { depth: "1", "content-type": "application/xml" },
        body: `<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"/></c:filter></c:calendar-query>`,
      });
      const xml = await res.text();
      const out: { href: string; text: string }[] = [];
      for (const m of xml.matchAll(
        /<(?:\w+:)?response>[\s\S]*?<(?:\w+:)?href>([^<]+)<\/(?:\w+:)?href>[\s\S]*?<(?:\w+:)?calendar-data[^>]*>([\s\S]*?)<\/(?:\w+:)?calendar-data>/g,
      ))
        out.push({
          href: m[1] as string,
          text: (m[2] as string).replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&"),
        });
      return out;
    },
    async stop() {
      const proc = child;
      if (!proc || proc.exitCode !== null) return;
      proc.removeAllListeners("exit");
      const exited = new Promise((r) => proc.once("exit", r));
      proc.kill("SIGCONT");
      proc.kill("SIGTERM");
      await exited;
    },
    async start() {
      await launch();
      await answers();
    },
    setPassword(user, password) {
      users[user] = password;
      writeUsers();
    },
    freeze: () => child?.kill("SIGSTOP"),
    thaw: () => child?.kill("SIGCONT"),
    async close() {
      await radicale.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return radicale;
}
