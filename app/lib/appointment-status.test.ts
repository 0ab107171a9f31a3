import { describe, expect, it } from "vitest";
import {
  filterGroups,
  filterStatuses,
  isFaded,
  STATUS_GROUPS,
  statusFilterLabel,
  statusGroup,
  statusLabel,
  statusTone,
} from "./appointment-status";

describe("appointment statuses (spec §4)", () => {
  it("colours ACCEPTED/CONFIRMED green, PENDING yellow, CANCELLED red, DELETED grey, else neutral", () => {
    expect(statusTone("ACCEPTED")).toBe("green");
    expect(statusTone("confirmed")).toBe("green");
    expect(statusTone("PENDING")).toBe("yellow");
    expect(statusTone("CANCELLED")).toBe("red");
    expect(statusTone("DELETED")).toBe("grey");
    expect(statusTone("REJECTED")).toBe("neutral");
  });
  it("groups confirmed, pending and cancelled; fades cancelled and deleted", () => {
    expect(["ACCEPTED", "CONFIRMED"].map(statusGroup)).toEqual(["confirmed", "confirmed"]);
    expect(statusGroup("PENDING")).toBe("pending");
    expect(["CANCELLED", "DELETED"].map(statusGroup)).toEqual(["cancelled", "cancelled"]);
    expect(isFaded("CANCELLED")).toBe(true);
    expect(isFaded("DELETED")).toBe(true);
    expect(isFaded("ACCEPTED")).toBe(false);
  });
  it("has a German label for every status", () => {
    for (const s of ["ACCEPTED", "CONFIRMED", "PENDING", "CANCELLED", "DELETED", "REJECTED"]) {
      expect(statusLabel(s)).not.toMatch(/[A-Z]{4,}/);
    }
    expect(statusLabel("DELETED")).toBe("Gelöscht");
    expect(statusLabel("SOMETHING")).toBe("Unbekannt (SOMETHING)");
  });
  it("reaches every status through the filter keys", () => {
    const reached = STATUS_GROUPS.flatMap((g) => {
      const { statuses, other } = filterStatuses([g]);
      return other ? ["<other>"] : statuses;
    });
    expect(reached).toEqual(
      expect.arrayContaining([
        "ACCEPTED",
        "CONFIRMED",
        "PENDING",
        "CANCELLED",
        "DELETED",
        "<other>",
      ]),
    );
    expect(filterGroups(["CONFIRMED", "DELETED"])).toEqual(["confirmed", "cancelled"]);
    expect(statusFilterLabel(["confirmed", "cancelled"])).toBe("Bestätigt, Abgesagt");
    expect(statusFilterLabel([...STATUS_GROUPS])).toBe("Alle");
  });
});
