import { describe, expect, it } from "vitest";
import {
  busyFeedWarningHeadline,
  feedErrorLabel,
  lastSuccessLabel,
  OptionalVideoUrlSchema,
  VIDEO_URL_UNSAFE,
} from "./team-calendar";

describe("video link (settings' room and the per-appointment link share one schema)", () => {
  it.each([
    "https://meet.example.com/raum\r\nATTENDEE:mailto:x@example.com",
    "https://meet.example.com/raum\tzwei",
    'https://meet.example.com/raum "zitat"',
    "https://meet.example.com/raum'x",
  ])("refuses control characters, blanks and quotes: %j", (raw) => {
    const parsed = OptionalVideoUrlSchema.safeParse(raw);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(VIDEO_URL_UNSAFE);
  });

  it("keeps a clean https link, trims the edges and reads blank as none", () => {
    expect(OptionalVideoUrlSchema.parse("  https://meet.example.com/abc-def?pwd=1  ")).toBe(
      "https://meet.example.com/abc-def?pwd=1",
    );
    expect(OptionalVideoUrlSchema.parse("  ")).toBeNull();
  });
});

describe("the dashboard's team-calendar warning names its case", () => {
  const down = { lastError: "HTTP 503" };
  const cut = { lastError: "Unvollständig: 1 Serientermin hat mehr als 20.000 Wiederholungen" };
  it("unreachable, incomplete or both", () => {
    expect(busyFeedWarningHeadline([down])).toBe(
      "Ein Kalender des Teams ist gerade nicht erreichbar.",
    );
    expect(busyFeedWarningHeadline([down, down])).toBe(
      "2 Kalender des Teams sind gerade nicht erreichbar.",
    );
    expect(busyFeedWarningHeadline([cut])).toBe(
      "Ein Kalender des Teams ist nur unvollständig eingelesen.",
    );
    expect(busyFeedWarningHeadline([cut, cut])).toBe(
      "2 Kalender des Teams sind nur unvollständig eingelesen.",
    );
    expect(busyFeedWarningHeadline([down, cut])).toBe(
      "2 Kalender des Teams brauchen Ihre Aufmerksamkeit.",
    );
  });
});

describe("a feed's error in plain German", () => {
  it.each([
    ["Verbindung fehlgeschlagen: ENOTFOUND", "Adresse nicht gefunden"],
    ["Verbindung fehlgeschlagen: EAI_AGAIN", "Adresse nicht gefunden"],
    ["Zeitüberschreitung nach 800 ms.", "Zeitüberschreitung"],
    ["Verbindung fehlgeschlagen: ECONNREFUSED", "Verbindung abgelehnt"],
    ["Antwort größer als 2 MB.", "Antwort zu groß"],
    ["Kein gültiger Kalender: invalid ical", "Kein gültiger Kalender (ICS)"],
    ["HTTP 404", "Der Server antwortete mit 404"],
    [
      "HTTP 302: Weiterleitungen werden nicht verfolgt.",
      "Der Server antwortete mit 302 (Weiterleitungen werden nicht verfolgt)",
    ],
    ["Verbindung fehlgeschlagen: EWHATEVER", "Verbindung fehlgeschlagen"],
    ["Adresse nicht erlaubt (privates Netz).", "Adresse nicht erlaubt (privates Netz)"],
  ])("%s → %s", (raw, plain) => {
    expect(feedErrorLabel(raw)).toBe(plain);
  });

  it("names the last successful fetch, never 'Noch nicht abgerufen'", () => {
    const now = Date.parse("2026-11-28T12:00:00Z");
    expect(lastSuccessLabel(null, now)).toBe("Letzter erfolgreicher Abruf: nie");
    expect(lastSuccessLabel("2026-11-28T11:30:00Z", now)).toBe(
      "Letzter erfolgreicher Abruf: vor 30 Min",
    );
  });
});
