import { HttpResponse, http } from "msw";

/** Base URL the app uses in tests (CALCOM_API_URL defaults to the real host; MSW answers it). */
export const CALCOM_URL = "https://api.cal.com/v2";

export const calcomEventTypes = [
  {
    id: 101,
    slug: "demo",
    title: "Demo-Termin",
    lengthInMinutes: 30,
    description: "<p>Wir zeigen dir <strong>deine Testversion</strong>.</p>",
    hidden: false,
  },
];

/** Cal.com API v2 stand-in for unit and integration tests (extend per test with server.use). */
export const calcomHandlers = [
  http.get(`${CALCOM_URL}/event-types`, () =>
    HttpResponse.json({ status: "success", data: calcomEventTypes }),
  ),
];
