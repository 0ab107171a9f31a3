import { describe, expect, it } from "vitest";
import { isPlainSummary } from "./plain-summary";

describe("isPlainSummary (AI summaries: plain text or nothing)", () => {
  it("takes German prose, also with numbers, quotes and line breaks", () => {
    expect(isPlainSummary("Ein Fahrradladen möchte Reparaturtermine online vergeben.")).toBe(true);
    expect(isPlainSummary("Kurze Zusammenfassung der Anfrage.")).toBe(true);
    expect(isPlainSummary("Zusammenfassung")).toBe(true);
    expect(
      isPlainSummary(
        "Eine Gärtnerei (12 Mitarbeitende) plant ein Abo für „Pflanzen des Monats“.\nZiel: 2027.",
      ),
    ).toBe(true);
  });

  it("refuses data, markup, code and placeholders", () => {
    for (const text of [
      "{}",
      "[]",
      '{"summary":"Ein Fahrradladen"}',
      '[{"text":"x"}]',
      "<p>Ein Fahrradladen möchte Termine.</p>",
      "```\nEin Fahrradladen\n```",
      "# Zusammenfassung\nEin Fahrradladen möchte Termine.",
      "null",
      "N/A",
      "…",
      "   ",
      "",
      null,
      undefined,
      "12345 67890",
      "4711",
    ]) {
      expect(isPlainSummary(text), String(text)).toBe(false);
    }
  });
});
