import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small loopback CalDAV stand-in (ADR 335) for what Radicale does not do: `free-busy-query`
 * (announced in supported-report-set, answered with a VFREEBUSY) and servers that misbehave —
 * malformed XML, 10 MB of events, a redirect loop, a wrong content type, a redirect to another
 * host or to a forbidden address. `mode` switches the misbehaviour; `requests` records what came.
 */
export type StandInMode =
  | "ok"
  | "malformed-xml"
  | "huge"
  | "redirect-loop"
  | "wrong-type"
  | "redirect-metadata"
  | "no-principal"
  | "forbidden"
  | "garbage-ics";

export type CaldavStandIn = {
  url: string;
  mode: StandInMode;
  /** The VFREEBUSY periods answered ("20300304T090000Z/20300304T100000Z"). */
  busy: string[];
  requests: { method: string; url: string; depth?: string; body: string }[];
  close: () => Promise<void>;
};

const MS = 'xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"';

export async function startCaldavStandIn(
  user = "tom",
  pass = "tom-passwort",
): Promise<CaldavStandIn> {
  const state: CaldavStandIn = {
    url: "",
    mode: "ok",
    busy: [],
    requests: [],
    close: async () => {},
  };
  const xml = (res: ServerResponse, body: string, status = 207) =>
    res.writeHead(status, { "content-type": 'application/xml; charset="utf-8"' }).end(body);
  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = req.url ?? "/";
    state.requests.push({
      method: req.method ?? "",
      url,
      depth: req.headers.depth as string,
      body,
    });
    const expected = `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
    if (req.headers.authorization !== expected) return res.writeHead(401).end();
    if (state.mode === "forbidden") return res.writeHead(403).end();
    if (state.mode === "redirect-loop") return res.writeHead(301, { location: url }).end();
    if (state.mode === "redirect-metadata")
      return res.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" }).end();
    if (state.mode === "malformed-xml")
      return xml(res, "<d:multistatus xmlns:d='DAV:'><d:response><d:href>/x");
    if (state.mode === "wrong-type")
      return res.writeHead(207, { "content-type": "text/html" }).end("<html>Wartung</html>");
    if (state.mode === "huge") {
      res.writeHead(207, { "content-type": "application/xml" });
      const chunk = Buffer.alloc(256 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (!res.destroyed && sent < 10 * 1024 * 1024 && res.write(chunk)) sent += chunk.length;
        if (res.destroyed || sent >= 10 * 1024 * 1024) return res.end();
        res.once("drain", pump);
      };
      return pump();
    }
    if (url === "/.well-known/caldav") return res.writeHead(301, { location: "/dav/" }).end();
    if (req.method === "PROPFIND" && (url === "/dav/" || url === "/")) {
      if (state.mode === "no-principal")
        return xml(
          res,
          `<d:multistatus ${MS}><d:response><d:href>/dav/</d:href><d:propstat><d:prop/><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`,
        );
      return xml(
        res,
        `<d:multistatus ${MS}><d:response><d:href>/dav/</d:href><d:propstat><d:prop><d:current-user-principal><d:href>/dav/principals/${user}/</d:href></d:current-user-principal></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`,
      );
    }
    if (req.method === "PROPFIND" && url === `/dav/principals/${user}/`)
      return xml(
        res,
        `<d:multistatus ${MS}><d:response><d:href>${url}</d:href><d:propstat><d:prop><c:calendar-home-set><d:href>/dav/calendars/${user}/</d:href></c:calendar-home-set></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`,
      );
    if (req.method === "PROPFIND" && url === `/dav/calendars/${user}/`)
      return xml(
        res,
        `<d:multistatus ${MS}><d:response><d:href>${url}</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response><d:response><d:href>${url}work/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>Arbeit &amp; Termine</d:displayname><c:supported-calendar-component-set><c:comp name="VEVENT"/></c:supported-calendar-component-set><d:supported-report-set><d:supported-report><d:report><c:free-busy-query/></d:report></d:supported-report><d:supported-report><d:report><c:calendar-query/></d:report></d:supported-report></d:supported-report-set></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response><d:response><d:href>${url}todo/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype><d:displayname>Aufgaben</d:displayname><c:supported-calendar-component-set><c:comp name="VTODO"/></c:supported-calendar-component-set></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`,
      );
    if (req.method === "REPORT" && url === `/dav/calendars/${user}/work/`) {
      if (body.includes("free-busy-query")) {
        if (state.mode === "garbage-ics")
          return res
            .writeHead(200, { "content-type": "text/calendar" })
            .end("BEGIN:VCALENDAR\r\nFREEBUSY:kaputt");
        return res
          .writeHead(200, { "content-type": "text/calendar; charset=utf-8" })
          .end(
            [
              "BEGIN:VCALENDAR",
              "VERSION:2.0",
              "PRODID:-//Stand-in//DE",
              "BEGIN:VFREEBUSY",
              "DTSTAMP:20300101T000000Z",
              ...state.busy.map((p) => `FREEBUSY;FBTYPE=BUSY:${p}`),
              "FREEBUSY;FBTYPE=FREE:20300304T150000Z/20300304T160000Z",
              "END:VFREEBUSY",
              "END:VCALENDAR",
              "",
            ].join("\r\n"),
          );
      }
      return xml(res, `<d:multistatus ${MS}/>`);
    }
    return res.writeHead(404).end();
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
