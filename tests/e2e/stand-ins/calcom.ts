import { createServer } from "node:http";

/** Loopback Cal.com API v2 stand-in for e2e (issue #4 extends it with slots and bookings). */
export function startCalcomStandIn(port: number) {
  const server = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.method === "GET" && req.url?.startsWith("/v2/event-types")) {
      res.end(
        JSON.stringify({
          status: "success",
          data: [
            {
              id: 101,
              slug: "demo",
              title: "Demo-Termin",
              lengthInMinutes: 30,
              description: "",
              hidden: false,
            },
          ],
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end(
      JSON.stringify({
        status: "error",
        error: { code: "NotFoundException", message: "Not found" },
      }),
    );
  });
  return new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
}
