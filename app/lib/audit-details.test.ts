import { describe, expect, it } from "vitest";
import { germanAuditDetails } from "./audit";

describe("germanAuditDetails (audit page and CSV)", () => {
  it("names the English keys of the retention job, tokens and messages in German", () => {
    const retention = JSON.stringify({
      requests: 2,
      quarantine: 1,
      mode: "anonymize",
      appointments: 0,
      mails: 3,
      secrets: 0,
      audit: 4,
    });
    expect(JSON.parse(germanAuditDetails(retention) ?? "")).toEqual({
      anfragen: 2,
      quarantaene: 1,
      modus: "anonymisieren",
      termine: 0,
      emails: 3,
      geheimnisse: 0,
      protokolleintraege: 4,
    });
    expect(germanAuditDetails(JSON.stringify({ id: 3, scopes: ["requests:read"] }))).toBe(
      JSON.stringify({ id: 3, berechtigungen: ["requests:read"] }),
    );
    expect(germanAuditDetails(JSON.stringify({ message: 7 }))).toBe('{"nachricht":7}');
  });

  it("leaves German keys, non-JSON text and nothing as they are", () => {
    expect(germanAuditDetails('{"bereiche":["Spam"]}')).toBe('{"bereiche":["Spam"]}');
    expect(germanAuditDetails("frei")).toBe("frei");
    expect(germanAuditDetails(null)).toBeNull();
  });
});
