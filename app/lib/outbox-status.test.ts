import { describe, expect, it } from "vitest";
import { outboxStatusView } from "./outbox-status";

describe("outboxStatusView", () => {
  it("tells waiting, retrying (with the attempt count), failed and sent apart", () => {
    expect(outboxStatusView("pending", 0, "Zugestellt")).toEqual({
      label: "Wartend",
      tone: "waiting",
    });
    expect(outboxStatusView("pending", 2, "Zugestellt")).toEqual({
      label: "Fehlgeschlagen – neuer Versuch geplant (2 von 8)",
      tone: "retrying",
    });
    expect(outboxStatusView("failed", 8, "Zugestellt")).toEqual({
      label: "Fehlgeschlagen (8 Versuche)",
      tone: "failed",
    });
    expect(outboxStatusView("failed", 1, "Gesendet").label).toBe("Fehlgeschlagen (1 Versuch)");
    expect(outboxStatusView("sent", 3, "Gesendet")).toEqual({ label: "Gesendet", tone: "done" });
  });
});
