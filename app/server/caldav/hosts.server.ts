import { and, eq } from "drizzle-orm";
import type { Host, Interval } from "~/lib/availability";
import type { IsoDay } from "~/lib/booking-calendar";
import { admins, calendarConnections } from "~db/schema";
import { getConfiguration } from "../configuration/configuration.server";
import { db } from "../platform/db.server";
import { busyOfDay } from "./live-busy.server";

/**
 * Who takes a demo (ADR 338): "team" — one shared calendar: the busy times of every connected
 * admin's busy calendars block the slot for everyone; "admins" — the admins who take demos, each
 * with their own busy times (a slot is free when one of them is). With "admins" but nobody who
 * takes demos yet, the team rule applies (the settings say so).
 */
export type HostPlan = { teamBusy: Interval[]; hosts?: Host[] };

/** Active admins who take demos and have connected a calendar. */
export function demoTakers(): { adminId: number; connectionId: number }[] {
  return db()
    .select({ adminId: calendarConnections.adminId, connectionId: calendarConnections.id })
    .from(calendarConnections)
    .innerJoin(admins, eq(admins.id, calendarConnections.adminId))
    .where(and(eq(calendarConnections.takesDemos, true), eq(admins.isActive, true)))
    .orderBy(calendarConnections.adminId)
    .all();
}

/** Whether bookings are made per admin now (the mode is "admins" and someone takes demos). */
export function perAdminHosts(): boolean {
  return getConfiguration().teamCalendar.demoHosts === "admins" && demoTakers().length > 0;
}

/** The CalDAV part of a day's availability input (the cache only; refreshLiveBusy fills it). */
export function demoHostPlan(day: IsoDay): HostPlan {
  const byConnection = busyOfDay(day);
  if (getConfiguration().teamCalendar.demoHosts === "admins") {
    const takers = demoTakers();
    if (takers.length)
      return {
        teamBusy: [],
        hosts: takers.map((t) => ({
          id: t.adminId,
          busy: byConnection.get(t.connectionId)?.busy ?? [],
        })),
      };
  }
  return { teamBusy: [...byConnection.values()].flatMap((v) => v.busy) };
}
