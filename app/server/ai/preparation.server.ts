import { z } from "zod";
import type { PreparationField } from "~/lib/configuration";
import { formatDateTime, summaryOf } from "~/lib/format";
import { isPlainSummary } from "~/lib/plain-summary";
import { STATUS_LABELS } from "~/lib/request-list";
import { fenceUntrusted, oneLine, UNTRUSTED_NOTE } from "~/lib/untrusted-text";
import { fenceVisitorWords } from "~/lib/visitor-words";
import { getConfiguration } from "../configuration/configuration.server";
import { AiError, complete } from "./anthropic.server";

export const NO_DESCRIPTION = "Keine Beschreibung für diesen Request gefunden!";
export const NO_FIELDS = "Keine Preparation-Felder in der Konfiguration gefunden!";
export const NO_PROMPT = "Kein Prompt erhalten!";

type RequestText = {
  name: string;
  companyDescription: string;
  description: string;
  summary: string | null;
  status?: string;
  createdAt?: string;
  /** The transcript of the voice recording (ADR 272), fenced as the visitor's words. */
  voiceTranscript?: string | null;
};

const TRANSCRIPT_LABEL = "Sprachnachricht (Transkript)";

/** Fills only fields that are empty; names match case-insensitively; typed text is never replaced. */
export function mergeOnlyEmpty(
  existing: Record<string, string>,
  generated: Record<string, string>,
  fields: PreparationField[],
): Record<string, string> {
  const result = { ...existing };
  const generatedByName = new Map(Object.entries(generated).map(([k, v]) => [k.toLowerCase(), v]));
  for (const field of fields) {
    const key =
      Object.keys(result).find((k) => k.toLowerCase() === field.name.toLowerCase()) ?? field.name;
    if ((result[key] ?? "").trim()) continue;
    const value = generatedByName.get(field.name.toLowerCase());
    if (typeof value === "string" && value.trim()) result[key] = value.trim();
  }
  return result;
}

/** What the AI (a processor outside the EU) sees: the request text only, no name, e-mail or phone. */
function requestText(request: RequestText) {
  return [
    UNTRUSTED_NOTE,
    "Unternehmen:",
    fenceUntrusted(request.companyDescription),
    "Projektbeschreibung:",
    fenceUntrusted(request.description || summaryOf(request) || "(keine)"),
    request.voiceTranscript?.trim()
      ? fenceVisitorWords(TRANSCRIPT_LABEL, request.voiceTranscript)
      : null,
  ]
    .filter((line) => line !== null)
    .join("\n");
}

/**
 * Asks Claude for one text per preparation field (tool use, so the answer is a JSON object keyed by
 * field name), validated with Zod. The system prompt always comes from the saved configuration.
 */
export async function generatePreparation(
  request: RequestText,
  fields: PreparationField[],
): Promise<Record<string, string>> {
  if (!fields.length) throw new AiError(NO_FIELDS, 400);
  if (
    !request.description.trim() &&
    !request.summary?.trim() &&
    !request.companyDescription.trim()
  ) {
    throw new AiError(NO_DESCRIPTION, 400);
  }
  const properties = Object.fromEntries(
    fields.map((f) => [
      f.name,
      { type: "string", description: `${f.label}${f.placeholder ? ` – ${f.placeholder}` : ""}` },
    ]),
  );
  const { toolInput } = await complete({
    budget: "manual",
    system: getConfiguration().systemPrompt,
    prompt: `Bereite die folgende Kundenanfrage vor. Fülle jedes Feld mit einem knappen, konkreten deutschen Text.\n\n${requestText(request)}\n\nFelder:\n${fields.map((f) => `- ${f.name}: ${f.label}${f.placeholder ? ` (${f.placeholder})` : ""}`).join("\n")}`,
    tool: {
      name: "save_preparation",
      description: "Speichert die vorbereiteten Texte, ein Eintrag pro Feldname.",
      input_schema: { type: "object", properties, required: fields.map((f) => f.name) },
    },
  });
  const parsed = z.record(z.string(), z.string()).safeParse(toolInput);
  if (!parsed.success || !Object.keys(parsed.data).length) {
    throw new AiError(
      "Die Antwort der KI konnte nicht gelesen werden. Bitte versuchen Sie es erneut.",
      502,
    );
  }
  return parsed.data;
}

/** A short German summary (2–3 sentences) of a new request. */
export async function generateSummary(request: RequestText): Promise<string> {
  const { text } = await complete({
    budget: "automatic",
    system:
      "Du fasst Kundenanfragen einer Software-Agentur in zwei bis drei deutschen Sätzen zusammen. Nur die Zusammenfassung, ohne Einleitung.",
    prompt: requestText(request),
    maxTokens: 300,
  });
  if (!text) throw new AiError("Die KI hat keine Zusammenfassung geliefert.", 502);
  // JSON, markup or a placeholder is no summary (`{}` once stood in the list): asked again later.
  if (!isPlainSummary(text)) throw new UnusableSummaryError();
  return text.slice(0, 1000);
}

/** The AI answered, but not with plain text: the attempt counts, the next round asks again. */
export class UnusableSummaryError extends AiError {
  override name = "UnusableSummaryError";
  constructor() {
    super("Die KI hat keine Zusammenfassung als Text geliefert.", 502);
  }
}

/**
 * The template prompt for an AI coding assistant (used as is when no AI is configured): German
 * throughout, the status as the list shows it, the date in German; never e-mail or phone.
 */
export function templateCodingPrompt(
  request: RequestText,
  preparationData: Record<string, string>,
  fields: PreparationField[],
  /** false for the text sent to the AI: not even the name leaves the server. */
  personal = true,
): string {
  const prep = fields
    .map((f) => {
      const value = Object.entries(preparationData).find(
        ([k]) => k.toLowerCase() === f.name.toLowerCase(),
      )?.[1];
      return `### ${f.label}\n${value?.trim() || "(noch offen)"}`;
    })
    .join("\n\n");
  const status = request.status
    ? (STATUS_LABELS[request.status as keyof typeof STATUS_LABELS] ?? request.status)
    : "";
  return [
    "# Aufgabe: eine lauffähige Testversion bauen",
    "",
    "Du bist ein erfahrener Full-Stack-Entwickler. Baue innerhalb von drei Tagen eine klickbare, lauffähige Testversion der unten beschriebenen Software. Setze auf einen einfachen, verbreiteten Technologie-Stack, halte den Umfang klein und den Code leicht erweiterbar.",
    "",
    UNTRUSTED_NOTE,
    "",
    "## Kunde",
    personal ? `- Name: ${oneLine(request.name)}` : null,
    request.createdAt ? `- Anfrage vom: ${formatDateTime(request.createdAt)} Uhr` : null,
    status ? `- Status: ${status}` : null,
    "- Unternehmen:",
    fenceUntrusted(request.companyDescription),
    "",
    "## Beschreibung",
    fenceUntrusted(request.description.trim() || summaryOf(request)),
    "",
    ...(request.voiceTranscript?.trim()
      ? ["## Sprachnachricht", fenceVisitorWords(TRANSCRIPT_LABEL, request.voiceTranscript), ""]
      : []),
    "## Vorbereitung",
    prep,
    "",
    "## Vorgehen",
    "1. Kläre die Kernfunktionen und lege ein minimales Datenmodell an.",
    "2. Baue zuerst den wichtigsten Ablauf Ende-zu-Ende (Oberfläche, Logik, Speicherung).",
    "3. Schreibe Tests für die Kernlogik und eine kurze README mit Startanleitung.",
    "4. Halte offene Fragen als Liste für den Demo-Termin fest.",
  ]
    .filter((line) => line !== null)
    .join("\n");
}

/** Prompt for an AI coding assistant: from Claude when configured, otherwise from the template. */
export async function generateCodingPrompt(
  request: RequestText,
  preparationData: Record<string, string>,
  fields: PreparationField[],
  useAi: boolean,
): Promise<string> {
  if (!request.description.trim() && !request.summary?.trim() && !request.voiceTranscript?.trim())
    throw new AiError(NO_DESCRIPTION, 400);
  if (!fields.length) throw new AiError(NO_FIELDS, 400);
  if (!useAi) return templateCodingPrompt(request, preparationData, fields);
  const template = templateCodingPrompt(request, preparationData, fields, false);
  const { text } = await complete({
    budget: "manual",
    system: getConfiguration().systemPrompt,
    prompt: `Formuliere aus den folgenden Angaben einen präzisen, vollständigen Prompt für einen KI-Coding-Assistenten (z. B. Cursor), der damit eine Testversion baut. Antworte nur mit dem Prompt.\n\n${template}`,
    maxTokens: 3000,
  });
  if (!text.trim()) throw new AiError(NO_PROMPT, 502);
  return text;
}
