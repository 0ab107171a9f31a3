import { describe, expect, it } from "vitest";
import { busyFeedWarningHeadline, OptionalVideoUrlSchema, VIDEO_URL_UNSAFE } from "./team-calendar";

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
