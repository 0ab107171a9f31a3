import { describe, expect, it } from "vitest";
import { mentionedNames, NOTE_MESSAGES, NoteSchema, noteEditable } from "./request-notes";

describe("mentions in a note", () => {
  it("finds @usernames at word starts, each once, without a sentence's trailing dot", () => {
    expect(
      mentionedNames("Bitte @anna.m und @Ben_K anrufen, danach @anna.m. Danke @ben_k!"),
    ).toEqual(["anna.m", "Ben_K"]);
    expect(mentionedNames("(@jörg) – @Özlem-2")).toEqual(["jörg", "Özlem-2"]);
  });
  it("ignores e-mail addresses and a lone @", () => {
    expect(mentionedNames("Kunde schrieb an info@firma.de und @ allein")).toEqual([]);
  });
});

describe("NoteSchema", () => {
  it("keeps line breaks (CRLF as LF), trims, refuses empty and over-long notes", () => {
    expect(NoteSchema.parse({ body: "  Zeile 1\r\nZeile 2\n " })).toEqual({
      body: "Zeile 1\nZeile 2",
    });
    const message = (body: unknown) =>
      NoteSchema.safeParse({ body }).error?.issues.map((i) => i.message);
    expect(message("   ")).toEqual([NOTE_MESSAGES.bodyRequired]);
    expect(message(undefined)).toEqual([NOTE_MESSAGES.bodyRequired]);
    expect(message("x".repeat(5000))).toBeUndefined();
    expect(message("x".repeat(5001))).toEqual([NOTE_MESSAGES.bodyTooLong]);
    expect(NOTE_MESSAGES.bodyTooLong).toBe("Die Notiz darf höchstens 5.000 Zeichen lang sein.");
  });
});

describe("noteEditable", () => {
  const createdAt = "2026-12-09T10:00:00.000Z";
  const t = Date.parse(createdAt);
  it("by the author for 15 minutes, never by someone else", () => {
    expect(noteEditable({ authorId: 3, createdAt }, 3, t + 15 * 60_000)).toBe(true);
    expect(noteEditable({ authorId: 3, createdAt }, 3, t + 15 * 60_000 + 1)).toBe(false);
    expect(noteEditable({ authorId: 3, createdAt }, 4, t)).toBe(false);
    expect(noteEditable({ authorId: null, createdAt }, 3, t)).toBe(false);
  });
});
