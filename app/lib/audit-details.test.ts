import { describe, expect, it } from "vitest";
import { auditDetailsText } from "./audit";

describe("auditDetailsText (audit page and CSV): German words, never the stored JSON", () => {
  it("a status change reads 'Status: Neu → Erledigt'", () => {
    expect(auditDetailsText("status", '{"from":"New","to":"Done"}')).toBe("Status: Neu → Erledigt");
    expect(auditDetailsText("status", '{"from":"In Progress","to":"New"}')).toBe(
      "Status: In Bearbeitung → Neu",
    );
  });

  it("a status change that moves the pipeline's phase names both (ADR 345)", () => {
    const details = JSON.stringify({
      from: "New",
      to: "Done",
      phase: { von: "Neu", nach: "Gewonnen" },
      grund: "Preis",
    });
    expect(auditDetailsText("status", details)).toBe(
      "Status: Neu → Erledigt · Phase: Neu → Gewonnen · Grund: Preis",
    );
  });

  it("a moved appointment names both times in German", () => {
    expect(
      auditDetailsText(
        "appointment-moved",
        JSON.stringify({ from: "2026-12-01T09:00:00.000Z", to: "2026-12-02T10:30:00.000Z" }),
      ),
    ).toBe("Termin: 01.12.2026, 10:00 Uhr → 02.12.2026, 11:30 Uhr");
  });

  it("names the keys of the retention job, tokens, messages and settings in German", () => {
    const retention = JSON.stringify({
      requests: 2,
      quarantine: 1,
      mode: "anonymize",
      appointments: 0,
      mails: 3,
      secrets: 0,
      audit: 4,
    });
    expect(auditDetailsText("retention", retention)).toBe(
      "Anfragen: 2 · aus der Spamprüfung: 1 · Verfahren: anonymisieren · Termine: 0 · E-Mails: 3 · abgelaufene Links: 0 · Protokolleinträge: 4",
    );
    expect(
      auditDetailsText("api-token-created", JSON.stringify({ id: 3, scopes: ["requests:read"] })),
    ).toBe("ID: 3 · Berechtigungen: requests:read");
    expect(auditDetailsText("message-sent", JSON.stringify({ message: 7 }))).toBe("Nachricht: 7");
    expect(
      auditDetailsText(
        "settings",
        JSON.stringify({
          bereiche: ["emailNotifications", "branding"],
          schluessel: ["branding.name"],
        }),
      ),
    ).toBe(
      "Bereiche: E-Mail-Benachrichtigungen, Erscheinungsbild und Inhalte · Geänderte Einstellungen: branding.name",
    );
    expect(auditDetailsText("login", JSON.stringify({ zweiFaktor: true }))).toBe(
      "Mit zweitem Faktor: ja",
    );
    expect(
      auditDetailsText(
        "export-csv",
        JSON.stringify({ tab: "active", status: "New", suche: "nein" }),
      ),
    ).toBe("Ansicht: Aktive Anfragen · Status: Neu · Suche: nein");
  });

  it("no curly braces or quotes reach the page for any object", () => {
    const text = auditDetailsText("assign", JSON.stringify({ admin: "mara", unbekannt: "x" }));
    expect(text).toBe("Admin: mara · unbekannt: x");
    expect(text).not.toMatch(/[{}"]/);
  });

  it("leaves non-JSON text and nothing as they are", () => {
    expect(auditDetailsText("settings", "frei")).toBe("frei");
    expect(auditDetailsText("settings", null)).toBeNull();
  });
});
