import { createServer } from "node:http";

type MessagesBody = {
  tools?: { name: string; input_schema?: { properties?: Record<string, unknown> } }[];
  messages?: { content: string }[];
};

/**
 * Loopback Anthropic Messages API stand-in for e2e: forced tool calls get one German text per
 * property of the tool's schema (preparation); plain calls get a short text (summary, prompt).
 */
export function startAnthropicStandIn(port: number) {
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c) => {
      raw += c;
    });
    req.on("end", () => {
      res.setHeader("content-type", "application/json");
      if (req.method !== "POST" || !req.url?.startsWith("/v1/messages")) {
        res.statusCode = 404;
        res.end(
          JSON.stringify({
            type: "error",
            error: { type: "not_found_error", message: "Not found" },
          }),
        );
        return;
      }
      const body = JSON.parse(raw || "{}") as MessagesBody;
      const base = {
        id: "msg_e2e",
        type: "message",
        role: "assistant",
        model: "claude-e2e",
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      };
      const tool = body.tools?.[0];
      if (tool) {
        const input = Object.fromEntries(
          Object.keys(tool.input_schema?.properties ?? {}).map((name) => [
            name,
            `KI-Vorschlag für ${name}`,
          ]),
        );
        res.end(
          JSON.stringify({
            ...base,
            content: [{ type: "tool_use", id: "toolu_e2e", name: tool.name, input }],
            stop_reason: "tool_use",
          }),
        );
        return;
      }
      const prompt = body.messages?.[0]?.content ?? "";
      const text = prompt.includes("Coding-Assistent")
        ? "# Prompt für den Coding-Assistenten\nBaue eine Testversion der beschriebenen Software."
        : "Kurze Zusammenfassung der Anfrage.";
      res.end(
        JSON.stringify({ ...base, content: [{ type: "text", text }], stop_reason: "end_turn" }),
      );
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
