import { CaldavChoiceSchema, CaldavConnectSchema } from "~/lib/caldav";
import {
  calendarConnectionView,
  connectCalendar,
  disconnectCalendar,
  saveCalendarChoice,
} from "~/server/caldav/connections.server";
import { type ApiArgs, adminApi, noStoreJson } from "~/server/http/api-route.server";
import { failureJson } from "~/server/platform/result.server";

/**
 * The calling admin's CalDAV calendar (ADR 335), the twin of "Kalender (CalDAV)" on
 * /admin/account; a session only (an API token gets 401). GET → {calendar}; PUT {serverUrl,
 * username, password} connects (discovery; 400 names what failed); PATCH {busyCalendars,
 * writeCalendar, takesDemos} saves the choice; DELETE disconnects.
 */
const ALLOW = "GET, PUT, PATCH, DELETE";

export const loader = adminApi(
  { fallback: "Der Kalender konnte nicht geladen werden.", methods: ["GET"], scope: "session" },
  ({ admin }) => noStoreJson({ calendar: calendarConnectionView(admin.id) }),
);

const connect = adminApi(
  {
    fallback: "Der Kalender konnte nicht verbunden werden.",
    scope: "session",
    methods: ["PUT"],
    allow: ALLOW,
    schema: CaldavConnectSchema,
  },
  async ({ admin, body }) => {
    const connected = await connectCalendar(admin.id, body, admin);
    if (!connected.ok) return failureJson(connected);
    return noStoreJson({ message: connected.message, calendar: calendarConnectionView(admin.id) });
  },
);

const choose = adminApi(
  {
    fallback: "Die Auswahl konnte nicht gespeichert werden.",
    scope: "session",
    methods: ["PATCH"],
    allow: ALLOW,
    schema: CaldavChoiceSchema,
  },
  ({ admin, body }) => {
    const saved = saveCalendarChoice(admin.id, body);
    if (!saved.ok) return failureJson(saved);
    return noStoreJson({ message: saved.message, calendar: calendarConnectionView(admin.id) });
  },
);

const disconnect = adminApi(
  {
    fallback: "Die Verbindung konnte nicht getrennt werden.",
    methods: ["DELETE"],
    allow: ALLOW,
    scope: "session",
  },
  ({ admin }) => {
    const removed = disconnectCalendar(admin.id, admin);
    if (!removed.ok) return failureJson(removed);
    return noStoreJson({ message: removed.message });
  },
);

export const action = (args: ApiArgs) =>
  (args.request.method === "PATCH"
    ? choose
    : args.request.method === "DELETE"
      ? disconnect
      : connect)(args);
