import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";

/**
 * A minimal IMAP4rev1 server on loopback for tests of the reply poller (ADR 285): no
 * maintained npm package offers one in-process (hoodiecrow-imap is unmaintained, wildduck needs
 * MongoDB). It speaks exactly what imapflow uses against a server that only announces IMAP4rev1:
 * CAPABILITY, LOGIN, LIST "" "" (the namespace fallback), SELECT/EXAMINE, UID SEARCH, UID FETCH
 * (UID, FLAGS, RFC822.SIZE, BODY[]), UID STORE, NOOP, LOGOUT. One mailbox; plain TCP.
 */
export type ImapStandIn = {
  url: (user?: string, pass?: string) => string;
  port: number;
  /** Appends a raw mail (RFC 5322 text); returns its UID. */
  add: (source: string) => number;
  messages: { uid: number; flags: Set<string>; source: Buffer }[];
  /** Commands received (tag stripped), e.g. "UID STORE 3 +FLAGS (\\Seen)". */
  commands: string[];
  logins: number;
  /** A new UIDVALIDITY (the mailbox was recreated): UIDs start again at 1. */
  recreate: (uidValidity: number) => void;
  /** Stops listening (the server is down) / listens again on the same port. */
  stop: () => Promise<void>;
  start: () => Promise<void>;
  close: () => Promise<void>;
};

export async function startImapStandIn(
  options: { port?: number; user?: string; pass?: string } = {},
): Promise<ImapStandIn> {
  const user = options.user ?? "antworten@example.com";
  const pass = options.pass ?? "geheim";
  let uidValidity = 1000;
  let nextUid = 1;
  const messages: ImapStandIn["messages"] = [];
  const commands: string[] = [];
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = options.port ?? 0;

  const standIn: ImapStandIn = {
    url: (u = user, p = pass) =>
      `imap://${encodeURIComponent(u)}:${encodeURIComponent(p)}@127.0.0.1:${port}/INBOX`,
    get port() {
      return port;
    },
    add(source) {
      const uid = nextUid++;
      messages.push({
        uid,
        flags: new Set(),
        source: Buffer.from(source.replace(/\r?\n/g, "\r\n")),
      });
      return uid;
    },
    messages,
    commands,
    logins: 0,
    recreate(value) {
      uidValidity = value;
      nextUid = 1;
      messages.length = 0;
    },
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
      server = undefined;
    },
    async start() {
      server = createServer((socket) => session(socket));
      await new Promise<void>((resolve) => server?.listen(port, "127.0.0.1", resolve));
      port = (server.address() as AddressInfo).port;
    },
    close: () => standIn.stop(),
  };

  function session(socket: Socket) {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    const send = (line: string | Buffer) => socket.write(line);
    let authenticated = false;
    let buffer = "";
    send("* OK [CAPABILITY IMAP4rev1] Stand-in bereit\r\n");
    socket.on("data", (chunk) => {
      buffer += chunk.toString("utf8");
      for (let end = buffer.indexOf("\r\n"); end >= 0; end = buffer.indexOf("\r\n")) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        handle(line);
      }
    });

    function handle(line: string) {
      const [, tag, rest] = /^(\S+) (.*)$/.exec(line) ?? [];
      if (!tag || rest === undefined) return send("* BAD Befehl unverständlich\r\n");
      commands.push(rest);
      const [verb = "", ...args] = tokens(rest);
      const ok = (text = "erledigt") => send(`${tag} OK ${text}\r\n`);
      switch (verb.toUpperCase()) {
        case "CAPABILITY":
          send("* CAPABILITY IMAP4rev1\r\n");
          return ok();
        case "NOOP":
          return ok();
        case "LOGIN":
          if (args[0] === user && args[1] === pass) {
            authenticated = true;
            standIn.logins++;
            return ok("[CAPABILITY IMAP4rev1] angemeldet");
          }
          return send(`${tag} NO [AUTHENTICATIONFAILED] falsche Zugangsdaten\r\n`);
        case "LOGOUT":
          send("* BYE Tschüss\r\n");
          ok();
          return socket.end();
      }
      if (!authenticated) return send(`${tag} BAD nicht angemeldet\r\n`);
      switch (verb.toUpperCase()) {
        case "LIST":
          send('* LIST (\\Noselect) "/" ""\r\n');
          return ok();
        case "SELECT":
        case "EXAMINE":
          if (args[0]?.toUpperCase() !== "INBOX")
            return send(`${tag} NO kein solches Postfach\r\n`);
          send("* FLAGS (\\Seen \\Answered \\Flagged \\Deleted \\Draft)\r\n");
          send("* OK [PERMANENTFLAGS (\\Seen \\Answered \\Flagged \\Deleted \\Draft)] ok\r\n");
          send(`* ${messages.length} EXISTS\r\n* 0 RECENT\r\n`);
          send(`* OK [UIDVALIDITY ${uidValidity}] ok\r\n* OK [UIDNEXT ${nextUid}] ok\r\n`);
          return ok(verb.toUpperCase() === "SELECT" ? "[READ-WRITE] ausgewählt" : "[READ-ONLY] ok");
        case "UID":
          return uidCommand(args, ok);
        default:
          return send(`${tag} BAD ${verb} kennt der Stand-in nicht\r\n`);
      }
    }

    function uidCommand(args: string[], ok: () => void) {
      const [sub = "", set = "", ...more] = args;
      const maxUid = messages.at(-1)?.uid ?? 0;
      const seqOf = (uid: number) => messages.findIndex((m) => m.uid === uid) + 1;
      switch (sub.toUpperCase()) {
        case "SEARCH": {
          const criteria = [set, ...more].map((c) => c.toUpperCase());
          let hits = messages;
          for (let i = 0; i < criteria.length; i++) {
            if (criteria[i] === "UID") {
              const uids = uidSet(args[i + 2] ?? "", maxUid);
              hits = hits.filter((m) => uids(m.uid));
              i++;
            } else if (criteria[i] === "UNSEEN") hits = hits.filter((m) => !m.flags.has("\\Seen"));
          }
          send(`* SEARCH${hits.map((m) => ` ${m.uid}`).join("")}\r\n`);
          return ok();
        }
        case "FETCH": {
          const items = more.join(" ").toUpperCase();
          const uids = uidSet(set, maxUid);
          for (const m of messages.filter((x) => uids(x.uid))) {
            const parts = [`UID ${m.uid}`];
            if (items.includes("FLAGS")) parts.push(`FLAGS (${[...m.flags].join(" ")})`);
            if (items.includes("RFC822.SIZE")) parts.push(`RFC822.SIZE ${m.source.length}`);
            const body = items.includes("BODY.PEEK[]") || items.includes("BODY[]");
            send(
              `* ${seqOf(m.uid)} FETCH (${parts.join(" ")}${body ? ` BODY[] {${m.source.length}}\r\n` : ")\r\n"}`,
            );
            if (body) {
              send(m.source);
              send(")\r\n");
            }
          }
          return ok();
        }
        case "STORE": {
          const [mode = "", ...flags] = more;
          const uids = uidSet(set, maxUid);
          const list = flags.join(" ").replace(/[()]/g, "").split(" ").filter(Boolean);
          for (const m of messages.filter((x) => uids(x.uid))) {
            for (const f of list) {
              if (mode.startsWith("+")) m.flags.add(f);
              else if (mode.startsWith("-")) m.flags.delete(f);
            }
            if (!mode.toUpperCase().includes("SILENT"))
              send(`* ${seqOf(m.uid)} FETCH (UID ${m.uid} FLAGS (${[...m.flags].join(" ")}))\r\n`);
          }
          return ok();
        }
        default:
          return send(`BAD UID ${sub}\r\n`);
      }
    }
  }

  await standIn.start();
  return standIn;
}

/** Words of a command line; "quoted strings" unquoted, (lists) kept as one word. */
function tokens(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:\\.|[^"\\])*)"|(\([^)]*\))|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line))
    out.push(m[1] !== undefined ? m[1].replace(/\\(.)/g, "$1") : (m[2] ?? m[3] ?? ""));
  return out;
}

/** An IMAP UID set ("3", "2:4", "5:*", "1,3") as a test. */
function uidSet(set: string, maxUid: number): (uid: number) => boolean {
  const ranges = set.split(",").map((part) => {
    const [a = "", b = a] = part.split(":");
    const lo = a === "*" ? maxUid : Number(a);
    const hi = b === "*" ? maxUid : Number(b);
    return [Math.min(lo, hi), Math.max(lo, hi)] as const;
  });
  return (uid) => ranges.some(([lo, hi]) => uid >= lo && uid <= hi);
}
