import { describe, expect, it } from "vitest";
import { providerData } from "./provider-data.server";

describe("providerData", () => {
  it("keeps the booking's plain facts and drops attendees, organizer, responses and notes", () => {
    const kept = providerData({
      uid: "b_1",
      id: 42,
      status: "accepted",
      start: "2030-01-07T09:00:00.000Z",
      end: "2030-01-07T09:30:00.000Z",
      duration: 30,
      title: "Demo between Hanna Host and Anna Anders",
      eventTitle: "Demo",
      eventTypeId: 7,
      rescheduled: false,
      attendees: [{ name: "Anna Anders", email: "anna@example.com" }],
      hosts: [{ name: "Hanna Host", email: "hanna@example.com" }],
      bookingFieldsResponses: { name: "Anna Anders", email: "anna@example.com" },
      location: { type: "phone", value: "+49 170 1234567" },
      description: "Anna will reden",
      metadata: { requestId: "12", note: "privat" },
    });
    expect(kept).toEqual({
      uid: "b_1",
      id: 42,
      status: "accepted",
      start: "2030-01-07T09:00:00.000Z",
      end: "2030-01-07T09:30:00.000Z",
      duration: 30,
      eventTitle: "Demo",
      eventTypeId: 7,
      rescheduled: "false",
      requestId: "12",
    });
  });

  it("stores nothing for an empty or non-object payload", () => {
    expect(providerData(undefined)).toBeNull();
    expect(providerData("text")).toBeNull();
    expect(providerData({ attendees: [{ email: "a@example.com" }] })).toBeNull();
  });
});
