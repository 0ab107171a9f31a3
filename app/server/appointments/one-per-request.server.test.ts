import { describe, expect, it } from "vitest";
import { appointments, requests } from "~db/schema";
import { db } from "../platform/db.server";
import { hasActiveAppointment } from "./one-per-request.server";

let uid = 0;
// Distinct start times: two built-in appointments never share a slot (unique index).
const inADay = () => new Date(Date.now() + 24 * 3600_000 + ++uid * 60_000);

function request() {
  return db()
    .insert(requests)
    .values({
      name: "Anna",
      email: `anna-${++uid}@example.com`,
      phone: "+49 30 1234567",
      companyDescription: "Bäckerei in Köln",
    })
    .returning({ id: requests.id })
    .get().id;
}

function appointment(requestId: number, status: string, startTime = inADay()) {
  db()
    .insert(appointments)
    .values({
      requestId,
      provider: "builtin",
      externalUid: `t-${++uid}`,
      eventTypeKey: "demo",
      eventTypeName: "Demo",
      startTime,
      status,
    })
    .run();
}

describe("one active appointment per request", () => {
  it.each(["ACCEPTED", "CONFIRMED", "PENDING", "AWAITING_HOST"])(
    "a future %s appointment blocks a second booking",
    (status) => {
      const id = request();
      appointment(id, status);
      expect(hasActiveAppointment(id)).toBe(true);
    },
  );

  it.each(["CANCELLED", "DELETED", "REJECTED"])(
    "a %s appointment frees the request for a new booking",
    (status) => {
      const id = request();
      appointment(id, status);
      expect(hasActiveAppointment(id)).toBe(false);
    },
  );

  it("a past appointment does not block", () => {
    const id = request();
    appointment(id, "ACCEPTED", new Date(Date.now() - 3600_000));
    expect(hasActiveAppointment(id)).toBe(false);
  });
});
