import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { TZDate } from "@date-fns/tz";

type Booking = {
  id: number;
  uid: string;
  start: string;
  end: string;
  status: string;
  location: string;
  eventTypeId: number;
  attendee: unknown;
  metadata: unknown;
};

const EVENT_TYPE = {
  id: 101,
  slug: "demo",
  title: "Demo-Termin (Cal.com)",
  lengthInMinutes: 30,
  description: "<p>Demo über <strong>Cal.com</strong></p><script>alert(1)</script>",
  hidden: false,
};

/** Slot starts of one Berlin day, 09:00–17:00 every 30 minutes, weekdays only. */
function slotsOfDay(day: string): Date[] {
  const [y, m, d] = day.split("-").map(Number);
  const weekday = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  if (weekday === 0 || weekday === 6) return [];
  const out: Date[] = [];
  for (let minutes = 9 * 60; minutes + 30 <= 17 * 60; minutes += 30) {
    out.push(
      new Date(
        new TZDate(
          y,
          m - 1,
          d,
          Math.floor(minutes / 60),
          minutes % 60,
          0,
          0,
          "Europe/Berlin",
        ).getTime(),
      ),
    );
  }
  return out;
}

/**
 * Loopback Cal.com API v2 stand-in for e2e: event types, slots, bookings (create, get, cancel),
 * kept in memory. Answers in Cal.com's envelope; a taken slot gives Cal.com's 400 message.
 */
export function startCalcomStandIn(port: number) {
  const bookings = new Map<string, Booking>();
  let nextId = 1;
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
      const send = (status: number, body: unknown) => {
        res.statusCode = status;
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(body));
      };
      const ok = (data: unknown, status = 200) => send(status, { status: "success", data });
      const fail = (status: number, code: string, message: string) =>
        send(status, { status: "error", error: { code, message } });
      if (!req.headers.authorization?.startsWith("Bearer cal_"))
        return fail(401, "UnauthorizedException", "Invalid API key");

      if (req.method === "GET" && url.pathname === "/v2/event-types") return ok([EVENT_TYPE]);
      if (req.method === "GET" && url.pathname === "/v2/slots") {
        const start = new Date(url.searchParams.get("start") ?? "");
        if (Number.isNaN(start.getTime()))
          return fail(400, "BadRequestException", "start is required");
        const day = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin" }).format(
          new Date(start.getTime() + 12 * 3600_000),
        );
        const taken = new Set(
          [...bookings.values()].filter((b) => b.status !== "cancelled").map((b) => b.start),
        );
        const free = slotsOfDay(day).filter(
          (s) => s.getTime() > Date.now() && !taken.has(s.toISOString()),
        );
        return ok(free.length ? { [day]: free.map((s) => ({ start: s.toISOString() })) } : {});
      }
      if (req.method === "POST" && url.pathname === "/v2/bookings") {
        const body = JSON.parse(raw || "{}") as {
          start?: string;
          eventTypeId?: number;
          attendee?: unknown;
          metadata?: unknown;
        };
        const start = new Date(body.start ?? "");
        if (Number.isNaN(start.getTime()) || body.eventTypeId !== EVENT_TYPE.id)
          return fail(400, "BadRequestException", "Invalid booking");
        if (
          [...bookings.values()].some(
            (b) => b.start === start.toISOString() && b.status !== "cancelled",
          )
        ) {
          return fail(
            400,
            "BadRequestException",
            "User either already has booking at this time or is not available",
          );
        }
        const uid = `cal_${randomBytes(6).toString("hex")}`;
        const booking: Booking = {
          id: nextId++,
          uid,
          start: start.toISOString(),
          end: new Date(start.getTime() + 30 * 60_000).toISOString(),
          status: "accepted",
          location: `https://cal.example/video/${uid}`,
          eventTypeId: EVENT_TYPE.id,
          attendee: body.attendee,
          metadata: body.metadata,
        };
        bookings.set(uid, booking);
        return ok(booking, 201);
      }
      const match = /^\/v2\/bookings\/([^/]+)(\/cancel)?$/.exec(url.pathname);
      if (match) {
        const booking = bookings.get(decodeURIComponent(match[1]));
        if (!booking) return fail(404, "NotFoundException", "Booking not found");
        if (req.method === "POST" && match[2]) {
          booking.status = "cancelled";
          return ok(booking);
        }
        if (req.method === "GET") return ok(booking);
      }
      return fail(404, "NotFoundException", "Not found");
    });
  });
  // Resolves with a function that closes the stand-in again.
  return new Promise<() => Promise<void>>((resolve) =>
    server.listen(port, "127.0.0.1", () =>
      resolve(() => {
        server.closeAllConnections();
        return new Promise<void>((done) => server.close(() => done()));
      }),
    ),
  );
}
