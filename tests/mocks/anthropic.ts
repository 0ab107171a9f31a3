import { HttpResponse, http } from "msw";

export const ANTHROPIC_URL = "https://api.anthropic.com";

/** A Messages API answer with one text block. */
export function anthropicText(text: string) {
  return {
    id: "msg_test",
    type: "message",
    role: "assistant",
    model: "claude-test",
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10 },
  };
}

/** Anthropic stand-in for unit and integration tests (override per test with server.use). */
export const anthropicHandlers = [
  http.post(`${ANTHROPIC_URL}/v1/messages`, () =>
    HttpResponse.json(anthropicText("Zusammenfassung")),
  ),
];
