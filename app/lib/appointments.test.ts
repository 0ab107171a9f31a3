import { describe, expect, it } from "vitest";
import {
  cacheAgeLabel,
  effectiveStatus,
  emptyMessage,
  paginationText,
  readAppointmentQuery,
  searchAppointments,
  statusFilterLabel,
  statusGroup,
} from "./appointments";

describe("cacheAgeLabel", () => {
  it("follows the spec's thresholds", () => {
    expect(cacheAgeLabel(null)).toBe("Aktualisiert Nie");
    expect(cacheAgeLabel(0.5)).toBe("Aktualisiert Gerade eben");
    expect(cacheAgeLabel(1)).toBe("Aktualisiert vor 1 Min");
    expect(cacheAgeLabel(59)).toBe("Aktualisiert vor 59 Min");
    expect(cacheAgeLabel(60)).toBe("Aktualisiert vor 1h");
    expect(cacheAgeLabel(24 * 60 - 1)).toBe("Aktualisiert vor 23h");
    expect(cacheAgeLabel(24 * 60)).toBe("Aktualisiert vor 1d");
  });
});

describe("status", () => {
  it("prefers the scheduling service's status and defaults to PENDING", () => {
    expect(effectiveStatus("ACCEPTED", "cancelled")).toBe("CANCELLED");
    expect(effectiveStatus(null, null)).toBe("PENDING");
    expect(statusGroup("ACCEPTED")).toBe("confirmed");
    // Spec §4: anything outside ACCEPTED/CONFIRMED, PENDING, CANCELLED/DELETED is neutral ('other').
    expect(statusGroup("CONFIRMED")).toBe("confirmed");
    expect(statusGroup("PENDING")).toBe("pending");
    expect(statusGroup("DELETED")).toBe("cancelled");
    expect(statusGroup("REJECTED")).toBe("other");
    expect(statusGroup("AWAITING_HOST")).toBe("other");
  });
  it("labels the multi-select", () => {
    expect(statusFilterLabel([])).toBe("Alle");
    expect(statusFilterLabel(["ACCEPTED", "PENDING", "CANCELLED", "REJECTED"])).toBe("Alle");
    expect(statusFilterLabel(["ACCEPTED", "CANCELLED"])).toBe("Bestätigt, Abgesagt");
    const long = statusFilterLabel(["ACCEPTED", "PENDING", "CANCELLED"].map((s) => s));
    expect(long.length).toBeLessThanOrEqual(63);
  });
  it("cuts long labels at 60 characters with '...'", () => {
    const label = statusFilterLabel(
      Array.from({ length: 3 }, () => "EIN_SEHR_LANGER_UNBEKANNTER_STATUS"),
    );
    expect(label).toHaveLength(63);
    expect(label.endsWith("...")).toBe(true);
  });
});

describe("paginationText and empty messages", () => {
  it("words the range", () => {
    expect(paginationText(1, 10, 23)).toBe("Zeige 1 bis 10 von 23 Terminen");
    expect(paginationText(3, 10, 23)).toBe("Zeige 21 bis 23 von 23 Terminen");
  });
  it("picks the spec's empty text", () => {
    expect(emptyMessage("x", "all")).toBe("Keine Termine entsprechen den Suchkriterien.");
    expect(emptyMessage("", "upcoming")).toBe("Es sind keine zukünftigen Termine vorhanden.");
    expect(emptyMessage("", "past")).toBe("Es sind keine vergangenen Termine vorhanden.");
    expect(emptyMessage("", "all")).toBe("Es wurden noch keine Termine gebucht.");
  });
});

describe("searchAppointments", () => {
  const item = (name: string, description: string) => ({
    request: { name, email: "", phone: "", description, summary: null },
  });
  it("lists contact matches before content matches and drops the rest", () => {
    const items = [
      item("Bernd", "Eine App für Anna"),
      item("Zoe", "nichts"),
      item("Anna", "Lager"),
    ];
    expect(searchAppointments(items, "anna").map((i) => i.request.name)).toEqual(["Anna", "Bernd"]);
    expect(searchAppointments([{ request: null }], "anna")).toEqual([]);
  });
});

describe("readAppointmentQuery (the page and the API read the list query alike)", () => {
  const read = (query: string) => readAppointmentQuery(new URLSearchParams(query));

  it("defaults: page 1, 10 per page, all, newest, every status", () => {
    expect(read("")).toEqual({
      page: 1,
      limit: 10,
      filter: "all",
      sort: "newest",
      statuses: [],
      search: "",
    });
  });

  it("takes group keys and raw statuses, repeated or comma-separated, in any case", () => {
    expect(
      read("status=confirmed&status=accepted,Pending&status=OTHER&status=&status=foo").statuses,
    ).toEqual(["confirmed", "ACCEPTED", "pending", "other", "FOO"]);
  });

  it("falls back on unknown filter/sort and bounds page, limit and search", () => {
    const q = read(`filter=soon&sort=x&page=-3&limit=500&search=${"a".repeat(300)}`);
    expect(q).toMatchObject({ filter: "all", sort: "newest", page: 1, limit: 100 });
    expect(q.search).toHaveLength(200);
    expect(read("limit=0&page=abc")).toMatchObject({ limit: 10, page: 1 });
    expect(read("filter=past&sort=next&page=2")).toMatchObject({
      filter: "past",
      sort: "next",
      page: 2,
    });
  });
});
