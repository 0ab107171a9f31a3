import { describe, expect, it } from "vitest";
import { privacyNoteText, withTranscriptionNote } from "./privacy-note";

describe("privacy note", () => {
  it("replaces {monate}", () => {
    expect(privacyNoteText("nach {monate} Monaten", 6)).toBe("nach 6 Monaten");
  });

  it("names the transcription processor and what is sent only while transcription is on", () => {
    expect(withTranscriptionNote("Hinweis.", null)).toBe("Hinweis.");
    expect(withTranscriptionNote("Hinweis.", "api.openai.com")).toBe(
      "Hinweis. Deine Sprachnachricht wird zur Verschriftlichung an api.openai.com übermittelt – nur die Aufnahme, ohne Name und Kontaktdaten.",
    );
  });
});
