import { describe, expect, it } from "vitest";
import { calendarFile, calendarFileName, calendarUid, parseMailbox } from "./calendar";

const entry = {
  bookingUid: "builtin-abc123",
  sequence: 0,
  start: new Date("2026-12-01T09:00:00Z"),
  end: new Date("2026-12-01T09:30:00Z"),
  summary: "Demo-Termin",
  description: "Wir zeigen dir deine Testversion.",
};

describe("calendar (.ics)", () => {
  it("writes one VEVENT with a stable UID, SEQUENCE and UTC times", () => {
    const ics = calendarFile(entry);
    expect(ics).toContain("BEGIN:VCALENDAR");
    expect(ics.match(/BEGIN:VEVENT/g)).toHaveLength(1);
    expect(ics).toContain(`UID:${calendarUid("builtin-abc123")}`);
    expect(ics).toContain("SEQUENCE:0");
    expect(ics).toContain("DTSTART:20261201T090000Z");
    expect(ics).toContain("DTEND:20261201T093000Z");
    expect(ics).toContain("SUMMARY:Demo-Termin");
    expect(ics).toContain("STATUS:CONFIRMED");
  });
  it("keeps the UID across revisions and raises SEQUENCE; a cancellation says so", () => {
    const first = calendarFile(entry);
    const second = calendarFile({ ...entry, sequence: 1, cancelled: true });
    const uid = (ics: string) => ics.match(/^UID:(.*)$/m)?.[1];
    expect(uid(second)).toBe(uid(first));
    expect(second).toContain("SEQUENCE:1");
    expect(second).toContain("STATUS:CANCELLED");
    // Same input, same file (no random parts).
    expect(calendarFile(entry)).toBe(first);
  });
  it("names the download by its day", () => {
    expect(calendarFileName(entry.start)).toBe("demo-termin-2026-12-01.ics");
  });
});

describe("calendar invites (iTIP)", () => {
  const invite = {
    ...entry,
    organizer: { name: "Anfrage-Portal", email: "team@example.com" },
    attendee: { name: "Nora", email: "nora@example.com" },
  };
  it("a REQUEST names method, organiser and attendee", () => {
    // Unfolded: long content lines continue on the next line after CRLF + space.
    const ics = calendarFile({ ...invite, method: "REQUEST" }).replace(/\r\n /g, "");
    expect(ics).toContain("METHOD:REQUEST");
    expect(ics).toMatch(/ORGANIZER;CN="?Anfrage-Portal"?:mailto:team@example.com/);
    expect(ics).toMatch(/ATTENDEE;[^\r\n]*PARTSTAT=ACCEPTED[^\r\n]*mailto:nora@example.com/i);
  });
  it("a CANCEL keeps the UID and says CANCELLED", () => {
    const ics = calendarFile({ ...invite, method: "CANCEL", sequence: 2, cancelled: true });
    expect(ics).toContain("METHOD:CANCEL");
    expect(ics).toContain(`UID:${calendarUid("builtin-abc123")}`);
    expect(ics).toContain("SEQUENCE:2");
    expect(ics).toContain("STATUS:CANCELLED");
  });
  it("a download has no method", () => {
    expect(calendarFile(entry)).not.toContain("METHOD:");
  });
  it("reads the organiser from the sender address", () => {
    expect(parseMailbox("Anfrage-Portal <no-reply@localhost>")).toEqual({
      name: "Anfrage-Portal",
      email: "no-reply@localhost",
    });
    expect(parseMailbox("team@example.com")).toEqual({
      name: "team@example.com",
      email: "team@example.com",
    });
  });
});
