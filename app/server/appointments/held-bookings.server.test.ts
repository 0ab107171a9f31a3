import { describe, expect, it } from "vitest";
import { dayBoundsUtc } from "~/lib/booking-calendar";
import { appointments } from "~db/schema";
import { db } from "../platform/db.server";
import { heldHoldsOfDay } from "./held-bookings.server";

let uid = 0;

function held(kind: "holds" | "waits" | "gone", createdAt: Date, status = "ACCEPTED") {
  db()
    .insert(appointments)
    .values({
      provider: "builtin",
      externalUid: `held-${++uid}`,
      eventTypeKey: "demo",
      eventTypeName: "Demo",
      startTime: new Date(Date.UTC(2030, 0, 7, 8) + uid * 3600_000),
      status,
      heldBooking: kind,
      createdAt,
    })
    .run();
}

describe("the held bookings' daily count (ADR 355)", () => {
  it("counts the holds made on the Berlin day of `now`, whatever became of them", () => {
    // 2030-01-07 is a winter day: Berlin midnight is 23:00 UTC the evening before.
    const start = dayBoundsUtc("2030-01-07").start;
    expect(start.toISOString()).toBe("2030-01-06T23:00:00.000Z");
    const now = new Date("2030-01-07T12:00:00.000Z");
    const dayBefore = new Date(start.getTime() - 1000);
    const before = heldHoldsOfDay(now);
    const beforeOfDayBefore = heldHoldsOfDay(dayBefore);
    held("holds", new Date(start.getTime() - 1)); // the Berlin day before
    held("holds", start);
    held("holds", new Date(start.getTime() + 3600_000), "CANCELLED"); // cancelled: still used
    held("waits", new Date(start.getTime() + 7200_000), "HELD"); // noted only: not a hold
    held("gone", new Date(start.getTime() + 9000_000), "CANCELLED");
    expect(heldHoldsOfDay(now) - before).toBe(2);
    expect(heldHoldsOfDay(dayBefore) - beforeOfDayBefore).toBe(1);
  });
});
