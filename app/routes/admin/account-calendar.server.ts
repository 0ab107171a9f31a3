import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { CaldavChoiceSchema, CaldavConnectSchema, type CalendarReply } from "~/lib/caldav";
import type { SessionAdmin } from "~/server/accounts/auth.server";
import {
  connectCalendar,
  disconnectCalendar,
  saveCalendarChoice,
  testCalendarConnection,
} from "~/server/caldav/connections.server";
import { failureReply } from "~/server/platform/result.server";

const reply = (calendar: CalendarReply, status = 200) =>
  data({ result: null, notice: null, calendar }, { status });

/**
 * Form posts of "Kalender (CalDAV)" on /admin/account (ADR 335) — the same rules as
 * `/api/admin/account/calendar` and `…/calendar/test`.
 */
export async function handleCalendarIntent(intent: string, form: FormData, admin: SessionAdmin) {
  switch (intent) {
    case "calendar-connect": {
      const hide = ["password"];
      const submission = parseWithZod(form, { schema: CaldavConnectSchema });
      if (submission.status !== "success")
        return reply({ intent, result: submission.reply({ hideFields: hide }) }, 400);
      const connected = await connectCalendar(admin.id, submission.value, admin);
      // The message at its field and, focused and announced, atop the section.
      if (!connected.ok)
        return reply(
          {
            intent,
            result: failureReply(submission, connected, { hideFields: hide }),
            error: connected.error,
          },
          connected.status,
        );
      return reply({
        intent,
        result: submission.reply({ resetForm: true }),
        message: connected.message,
      });
    }
    case "calendar-choice": {
      const parsed = CaldavChoiceSchema.safeParse({
        busyCalendars: form.getAll("busyCalendars").map(String),
        writeCalendar: form.get("writeCalendar") ?? undefined,
        takesDemos: form.get("takesDemos") ?? false,
      });
      if (!parsed.success) return reply({ intent, error: "Ungültige Auswahl." }, 400);
      const saved = saveCalendarChoice(admin.id, parsed.data);
      if (!saved.ok) return reply({ intent, error: saved.error }, saved.status);
      return reply({ intent, message: saved.message });
    }
    case "calendar-test": {
      const tested = await testCalendarConnection(admin.id);
      if (!tested.ok) return reply({ intent, error: tested.error }, tested.status);
      return reply({ intent, message: tested.message });
    }
    case "calendar-disconnect": {
      const removed = disconnectCalendar(admin.id, admin);
      if (!removed.ok) return reply({ intent, error: removed.error }, removed.status);
      return reply({ intent, message: removed.message });
    }
    default:
      return reply({ intent, error: "Unbekannte Aktion." }, 400);
  }
}
