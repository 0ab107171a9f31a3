import { createServer } from "node:http";

/** Loopback Anthropic Messages API stand-in for e2e (issue #6 extends it). */
export function startAnthropicStandIn(port: number) {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.method === "POST" && req.url?.startsWith("/v1/messages")) {
        res.end(
          JSON.stringify({
            id: "msg_e2e",
            type: "message",
            role: "assistant",
            model: "claude-e2e",
            content: [{ type: "text", text: "Kurze Zusammenfassung der Anfrage." }],
            stop_reason: "end_turn",
            stop_sequence: null,
            usage: { input_tokens: 1, output_tokens: 1 },
          }),
        );
        return;
      }
      res.statusCode = 404;
      res.end(
        JSON.stringify({
          type: "error",
          error: { type: "not_found_error", message: body ? "Not found" : "" },
        }),
      );
    });
  });
  return new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
}
