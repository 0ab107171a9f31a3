// Attack review (issue 26): a quarantined request's Cal.com booking is held locally (status HELD,
// uid "held-…", never sent to Cal.com). Cancelling it must not call Cal.com with that made-up uid.
import { HttpResponse, http } from "msw";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/server/platform/db.server";
import { appointments, requests } from "~db/schema";
import { CALCOM_URL } from "../mocks/calcom";
import { mswListenOptions, setupMocks, startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
const msw = setupMocks();
const calls: string[] = [];

beforeAll(async () => {
  msw.listen(mswListenOptions);
  server = await startTestServer({ CALCOM_API_KEY: "cal_test_123" });
  token = await server.adminToken();
});
afterAll(async () => {
  msw.close();
  await server.close();
});

describe("a held Cal.com booking of a quarantined request", () => {
  it("is cancelled locally, without a call to Cal.com", async () => {
    msw.use(
      http.post(`${CALCOM_URL}/bookings/:uid/cancel`, ({ params }) => {
        calls.push(String(params.uid));
        return HttpResponse.json(
          { status: "error", error: { message: "Booking not found" } },
          {
            status: 404,
          },
        );
      }),
    );
    const request = db()
      .insert(requests)
      .values({
        name: "Bot",
        email: "bot@example.com",
        emailKey: "bot@example.com",
        phone: "+49 30 1234 5678",
        companyDescription: "Firma",
        description: "Eine App.",
        visitorSecretHash: "a".repeat(64),
        quarantinedAt: new Date(),
      })
      .returning()
      .get();
    const held = db()
      .insert(appointments)
      .values({
        requestId: request.id,
        provider: "calcom",
        externalUid: "held-00000000-0000-4000-8000-000000000000",
        eventTypeKey: "demo",
        eventTypeName: "Demo",
        startTime: new Date(Date.now() + 5 * 86_400_000),
        status: "HELD",
      })
      .returning()
      .get();
    const res = await server.fetch(`/api/admin/appointments/${held.id}/cancel`, {
      method: "POST",
      token,
    });
    expect(calls).toEqual([]);
    expect(res.status, await res.text()).toBe(200);
  });
});
