import { describe, expect, it } from "vitest";
import {
  cutAtWord,
  formatAttachmentSize,
  formatDate,
  formatDateTime,
  formatFileSize,
  formatLongDay,
  formatMegabytes,
  formatRequestId,
  formatTime,
  formatYear,
  summaryOf,
  summaryPreview,
} from "./format";

describe("format", () => {
  it("formats dates in de-DE, Europe/Berlin", () => {
    // 23:30 UTC on 31 Dec is already 1 Jan in Berlin.
    expect(formatDate("2026-12-31T23:30:00Z")).toBe("01.01.2027");
    expect(formatDateTime(new Date("2026-07-01T08:05:00Z"))).toBe("01.07.2026, 10:05");
    expect(formatTime("2026-12-03T13:30:00Z")).toBe("14:30");
    expect(formatLongDay("2026-12-31T23:30:00Z")).toBe("Freitag, 1. Januar 2027");
  });

  it("formats date and time exactly as Intl does, across DST switches and years", () => {
    const intl = new Intl.DateTimeFormat("de-DE", {
      timeZone: "Europe/Berlin",
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
    });
    const instants = [
      "2026-03-29T00:59:59Z", // 01:59 CET, the last minute before the switch
      "2026-03-29T01:00:00Z", // 03:00 CEST
      "2026-10-25T00:30:00Z", // 02:30 CEST
      "2026-10-25T01:30:00Z", // 02:30 CET, the hour that happens twice
      "1947-05-11T02:00:00Z", // 1947's +3 (Hochsommerzeit)
      "1969-12-31T23:59:30Z", // before the epoch
      "2099-12-31T23:00:00Z",
      // Before 1893-04-01 Berlin kept local mean time (+0:53:28): no whole-hour offset (attack review).
      "1800-01-01T00:00:00Z",
      "1893-03-31T22:30:00Z",
      "0001-01-01T00:00:00Z",
    ].map((text) => Date.parse(text));
    // and a seeded spread of minutes and seconds over 60 years
    let seed = 7;
    for (let i = 0; i < 5000; i++) {
      seed = (seed * 48271) % 2147483647;
      instants.push(Date.UTC(1990, 0, 1) + (seed % 60) * 1_000 + seed * 900);
    }
    for (const ms of instants) {
      expect(formatDateTime(ms)).toBe(intl.format(ms));
      expect(formatDateTime(new Date(ms).toISOString())).toBe(intl.format(ms));
    }
    expect(() => formatDateTime("kein Datum")).toThrow(RangeError);
  });

  it("gives Berlin's year exactly as Intl does, at the turn of the year and call after call", () => {
    const intl = new Intl.DateTimeFormat("de-DE", { timeZone: "Europe/Berlin", year: "numeric" });
    const instants = [
      "2026-12-31T22:59:59.999Z", // 23:59:59 CET: still 2026
      "2026-12-31T23:00:00Z", // midnight in Berlin: 2027, in the same UTC day
      "2026-12-31T22:59:59.999Z", // and back (the kept hour is replaced)
      "2027-06-30T21:59:59Z", // CEST
      "1893-03-31T22:30:00Z", // local mean time: Intl alone
      "0001-01-01T00:00:00Z",
    ].map((text) => Date.parse(text));
    let seed = 11;
    for (let i = 0; i < 2000; i++) {
      seed = (seed * 48271) % 2147483647;
      instants.push(Date.UTC(1950, 0, 1) + seed * 1_500);
    }
    for (const ms of instants) {
      expect(formatYear(ms)).toBe(intl.format(ms));
      expect(formatYear(new Date(ms))).toBe(intl.format(ms));
    }
    expect(() => formatYear("kein Datum")).toThrow(RangeError);
  });

  it("formats sizes with 1024 per step", () => {
    expect(formatFileSize(0)).toBe("0 Bytes");
    expect(formatFileSize(1023)).toBe("1023 Bytes");
    expect(formatFileSize(1024)).toBe("1 KB");
    expect(formatFileSize(1536)).toBe("1,5 KB");
    expect(formatFileSize(1024 * 1024)).toBe("1 MB");
    expect(formatFileSize(9.9 * 1024 * 1024)).toBe("9,9 MB");
    expect(formatMegabytes(10.5 * 1024 * 1024)).toBe("10,5");
  });

  it("shows attachment sizes in MB without ever rounding a file to 0 MB", () => {
    expect(formatAttachmentSize(1)).toBe("< 0,01 MB");
    expect(formatAttachmentSize(5000)).toBe("< 0,01 MB");
    expect(formatAttachmentSize(0.006 * 1024 * 1024)).toBe("0,01 MB");
    expect(formatAttachmentSize(52429)).toBe("0,05 MB");
    expect(formatAttachmentSize(1.234 * 1024 * 1024)).toBe("1,23 MB");
    expect(formatAttachmentSize(10 * 1024 * 1024)).toBe("10 MB");
    expect(formatAttachmentSize(0)).toBe("0 MB");
  });

  it("pads request ids to 4 digits", () => {
    expect(formatRequestId(7)).toBe("0007");
    expect(formatRequestId(12345)).toBe("12345");
  });

  it("falls back to the first 120 characters of the description", () => {
    const description = "x".repeat(200);
    expect(summaryOf({ summary: null, description })).toBe("x".repeat(120));
    expect(summaryOf({ summary: "  ", description: "kurz" })).toBe("kurz");
    expect(summaryOf({ summary: "Zusammenfassung", description })).toBe("Zusammenfassung");
  });

  it("cuts previews at a word with an ellipsis", () => {
    expect(cutAtWord("kurz genug", 20)).toBe("kurz genug");
    expect(cutAtWord("Eine App für die Verwaltung von Terminen", 20)).toBe("Eine App für die…");
    expect(cutAtWord("Wir brauchen, dringend eine Lösung", 14)).toBe("Wir brauchen…");
    expect(cutAtWord("x".repeat(30), 10)).toBe(`${"x".repeat(10)}…`);
    expect(cutAtWord("  viel   Leerraum\n hier ", 40)).toBe("viel Leerraum hier");
    const description = `${"Wort ".repeat(40)}Ende`;
    const preview = summaryPreview({ summary: null, description }, 140);
    expect(preview.endsWith("Wort…")).toBe(true);
    expect(preview.length).toBeLessThanOrEqual(141);
    expect(summaryPreview({ summary: "Kurz", description })).toBe("Kurz");
  });
});
