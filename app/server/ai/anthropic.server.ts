import type Anthropic from "@anthropic-ai/sdk";
import { getConfiguration } from "../configuration/configuration.server";
import { env } from "../platform/env.server";
import { type AiBudgetKind, aiBudgetMessage, takeAiCall } from "../spam/budgets.server";

// The SDK (~5 MB of V8 heap once loaded) is imported on the first AI call, not at boot: most
// processes never call the AI, and the server has to fit a 256 MB machine (ADR 166).
type Sdk = typeof import("@anthropic-ai/sdk");
let sdk: Sdk | undefined;
const loadSdk = async () => {
  sdk ??= await import("@anthropic-ai/sdk");
  return sdk;
};

/** AI generation time-out (spec: 300 s). */
export const AI_TIMEOUT_MS = 300_000;

/** A failure of the AI provider, already worded in German for admins. */
export class AiError extends Error {
  override name = "AiError";
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** Today's AI calls of a budget are used up (ADR 255, 319): 429, nothing was sent. */
export class AiBudgetError extends AiError {
  override name = "AiBudgetError";
  constructor(kind: AiBudgetKind) {
    const { ai } = getConfiguration();
    super(aiBudgetMessage(kind === "manual" ? ai.manualDailyLimit : ai.dailyLimit, kind), 429);
  }
}

/** Said to admins (page and API) when no key is set; the dashboard's go-live check says how to set it up. */
export const AI_NOT_CONFIGURED =
  "KI ist nicht eingerichtet – siehe Einrichtung in der Übersicht (/admin). Die Felder können Sie von Hand ausfüllen; der Prompt für den KI-Coding-Assistenten entsteht aus einer Vorlage.";

export const aiConfigured = () => Boolean(env().ANTHROPIC_API_KEY);

let client: Anthropic | undefined;
async function anthropic(): Promise<Anthropic> {
  const { ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL } = env();
  if (!ANTHROPIC_API_KEY) throw new AiError(AI_NOT_CONFIGURED, 503);
  const { default: Client } = await loadSdk();
  client ??= new Client({
    apiKey: ANTHROPIC_API_KEY,
    baseURL: ANTHROPIC_BASE_URL,
    timeout: AI_TIMEOUT_MS,
    maxRetries: 1,
  });
  return client;
}

/** Maps SDK errors to German messages with a fitting HTTP status. */
export function toAiError(error: unknown): AiError {
  if (error instanceof AiError) return error;
  // Without the SDK loaded no SDK error can exist.
  if (!sdk) return new AiError("Unerwarteter Fehler bei der KI-Anfrage.", 502);
  const { APIConnectionError, APIConnectionTimeoutError, APIError, RateLimitError } = sdk;
  if (error instanceof APIConnectionTimeoutError) {
    return new AiError(
      "Die KI hat nicht rechtzeitig geantwortet (Zeitüberschreitung). Bitte versuchen Sie es später erneut.",
      504,
    );
  }
  if (error instanceof RateLimitError) {
    return new AiError(
      "Die KI ist gerade ausgelastet (zu viele Anfragen). Bitte versuchen Sie es in einer Minute erneut.",
      429,
    );
  }
  if (error instanceof APIConnectionError) {
    return new AiError("Die KI ist nicht erreichbar. Bitte versuchen Sie es später erneut.", 502);
  }
  if (error instanceof APIError) {
    if (error.status === 401 || error.status === 403) {
      return new AiError("Der KI-Zugang wurde abgelehnt: Bitte prüfen Sie ANTHROPIC_API_KEY.", 502);
    }
    return new AiError(
      `Die KI hat mit einem Fehler geantwortet (${error.status ?? "unbekannt"}).`,
      502,
    );
  }
  return new AiError("Unerwarteter Fehler bei der KI-Anfrage.", 502);
}

type ToolSpec = {
  name: string;
  description: string;
  input_schema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
};

/**
 * One Messages call; returns the text or the forced tool's input. Refusals become AiErrors. Every
 * call takes one of today's budget of its kind first — `ai.dailyLimit` for the automatic
 * summaries, `ai.manualDailyLimit` for an admin's action (ADR 318): beyond it an AiBudgetError (429).
 */
export async function complete(options: {
  budget: AiBudgetKind;
  system: string;
  prompt: string;
  maxTokens?: number;
  tool?: ToolSpec;
  signal?: AbortSignal;
}): Promise<{ text: string; toolInput: unknown }> {
  const api = await anthropic();
  if (!takeAiCall(options.budget)) throw new AiBudgetError(options.budget);
  try {
    const message = await api.messages.create(
      {
        model: env().ANTHROPIC_MODEL,
        max_tokens: options.maxTokens ?? 2048,
        system: options.system,
        messages: [{ role: "user", content: options.prompt }],
        ...(options.tool
          ? {
              tools: [options.tool],
              tool_choice: { type: "tool" as const, name: options.tool.name },
            }
          : {}),
      },
      { signal: options.signal },
    );
    if ((message.stop_reason as string) === "refusal") {
      throw new AiError(
        "Die KI hat die Anfrage abgelehnt. Bitte formulieren Sie sie anders oder füllen Sie die Felder von Hand aus.",
        422,
      );
    }
    let text = "";
    let toolInput: unknown;
    for (const block of message.content) {
      if (block.type === "text") text += block.text;
      if (block.type === "tool_use") toolInput = block.input;
    }
    return { text: text.trim(), toolInput };
  } catch (error) {
    throw toAiError(error);
  }
}
