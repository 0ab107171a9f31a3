// Fair assignment (ADR 353) over HTTP: off by default; on, each released request goes to the next
// admin of the opted-in list in turn — 20 parallel submissions are shared exactly evenly, an
// admin absent today (their own Account-Einstellungen) and a deactivated one are skipped — audited;
// a request released from the quarantine takes the next turn, an assigned one keeps its admin;
// a booked demo adds its host beside the assignee and never replaces them (the same module).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { berlinToday } from "~/lib/booking-calendar";
import { apiLogin, insertAdmin, testDb } from "./auth-helpers";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
const admins: Record<string, { id: number; username: string; password: string }> = {};

function sql<T>(query: string, ...params: unknown[]): T[] {
  const db = testDb();
  try {
    return db.prepare(query).all(...params) as T[];
  } finally {
    db.close();
  }
}
const assigneesOf = (id: number) =>
  sql<{ admin_id: number }>(
    "SELECT admin_id FROM request_assignees WHERE request_id = ? ORDER BY assigned_at",
    id,
  ).map((r) => r.admin_id);

async function submit(name: string) {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields({ name })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number; assigned_to: number[] }).id;
}

beforeAll(async () => {
  server = await startTestServer({ SPAM_PROTECTION: "off", SUBMISSION_RATE_LIMIT: "1000/1h" });
  token = await server.adminToken();
  for (const name of ["anna.rr", "ben.rr", "carl.rr"]) admins[name] = await insertAdmin(name);
  admins["dora.rr"] = await insertAdmin("dora.rr", { active: false });
  // Carl is away from today for three days — set by himself in Account-Einstellungen (its API).
  const carl = await apiLogin(server, "carl.rr", admins["carl.rr"].password);
  const today = berlinToday();
  const until = new Date(`${today}T12:00:00Z`);
  until.setUTCDate(until.getUTCDate() + 3);
  const away = await server.fetch("/api/admin/account/preferences", {
    method: "PUT",
    token: carl,
    json: { morningDigest: true, absentFrom: today, absentUntil: until.toISOString().slice(0, 10) },
  });
  expect(away.status).toBe(200);
});
afterAll(async () => {
  await server.close();
});

describe("fair assignment", () => {
  it("is off by default: a new request is assigned to nobody", async () => {
    const id = await submit("Ohne Verteilung");
    expect(assigneesOf(id)).toEqual([]);
  });

  it("shares 20 parallel submissions evenly, skipping the absent and the inactive admin; audited", async () => {
    const order = ["anna.rr", "carl.rr", "ben.rr", "dora.rr"].map((n) => admins[n].id);
    const on = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: { assignment: { roundRobin: true, adminIds: order } },
    });
    expect(on.status).toBe(200);
    const auditedBefore = sql(
      "SELECT id FROM audit_log WHERE action = 'assign-round-robin'",
    ).length;

    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => submit(`Parallel ${i}`)));
    const perAdmin = new Map<number, number>();
    for (const id of ids) {
      const assigned = assigneesOf(id);
      expect(assigned, `request ${id}`).toHaveLength(1);
      perAdmin.set(assigned[0], (perAdmin.get(assigned[0]) ?? 0) + 1);
    }
    expect(Object.fromEntries(perAdmin)).toEqual({
      [admins["anna.rr"].id]: 10,
      [admins["ben.rr"].id]: 10,
    });
    // Turns alternate in the order of assignment (anna, ben, anna, …: carl and dora skipped).
    const inTurn = sql<{ admin_id: number }>(
      `SELECT admin_id FROM request_assignees WHERE request_id IN (${ids.join(",")}) ORDER BY rowid`,
    ).map((r) => r.admin_id);
    for (let i = 1; i < inTurn.length; i++) expect(inTurn[i]).not.toBe(inTurn[i - 1]);
    const audited = sql<{ actor_name: string; details: string }>(
      "SELECT actor_name, details FROM audit_log WHERE action = 'assign-round-robin' ORDER BY id",
    ).slice(auditedBefore);
    expect(audited).toHaveLength(20);
    expect(audited.every((a) => a.actor_name === "System")).toBe(true);
    expect(audited.filter((a) => a.details.includes("anna.rr"))).toHaveLength(10);
    // The request JSON (API) names the assignee.
    const json = await (await server.fetch(`/api/admin/requests/${ids[0]}`, { token })).json();
    expect(json.assigned_to).toEqual(assigneesOf(ids[0] as number));
  });

  it("a request released from the quarantine takes the next turn; an assigned one keeps its admin", async () => {
    const held = (name: string) =>
      Number(
        sql<{ id: number }>(
          "INSERT INTO requests (name, email, phone, company_description, description, quarantined_at) VALUES (?, ?, '+49 30 1', 'Firma Prüfen', 'App', ?) RETURNING id",
          name,
          `${name.toLowerCase().replace(/\W/g, ".")}@example.com`,
          Date.now(),
        )[0]?.id,
      );
    const last = sql<{ last_admin_id: number }>(
      "SELECT last_admin_id FROM assignment_rotation WHERE id = 1",
    )[0]?.last_admin_id;
    const next = last === admins["anna.rr"].id ? admins["ben.rr"].id : admins["anna.rr"].id;
    const released = held("Freigabe Eins");
    const res = await server.fetch(`/api/requests/${released}`, {
      method: "PATCH",
      token,
      json: { quarantined: false },
    });
    expect(res.status).toBe(200);
    expect(assigneesOf(released)).toEqual([next]);

    // Assigned by hand while held: the release keeps it (no second assignee).
    const manual = held("Freigabe Zwei");
    const assign = await server.fetch(`/api/admin/requests/${manual}/assign`, {
      method: "POST",
      token,
      json: { action: "add", admin_id: admins["carl.rr"].id },
    });
    expect(assign.status).toBe(200);
    await server.fetch(`/api/requests/${manual}`, {
      method: "PATCH",
      token,
      json: { quarantined: false },
    });
    expect(assigneesOf(manual)).toEqual([admins["carl.rr"].id]);
  });

  it("nobody eligible (all absent or inactive): no assignee, no error", async () => {
    const off = await server.fetch("/api/configuration", {
      method: "PATCH",
      token,
      json: {
        assignment: { roundRobin: true, adminIds: [admins["carl.rr"].id, admins["dora.rr"].id] },
      },
    });
    expect(off.status).toBe(200);
    const id = await submit("Niemand da");
    expect(assigneesOf(id)).toEqual([]);
  });

  it("a booked demo adds its host beside the assignee, never replacing one", async () => {
    const { addDemoHost } = await import("~/server/assignment/fair-assignment.server");
    const id = await submit("Demo Gast");
    await server.fetch(`/api/admin/requests/${id}/assign`, {
      method: "POST",
      token,
      json: { action: "add", admin_id: admins["anna.rr"].id },
    });
    const appointment = Number(
      sql<{ id: number }>(
        "INSERT INTO appointments (request_id, provider, external_uid, event_type_key, event_type_name, start_time, status, host_admin_id) VALUES (?, 'builtin', ?, 'demo', 'Demo', ?, 'ACCEPTED', ?) RETURNING id",
        id,
        `uid-${id}`,
        Date.now() + 86_400_000,
        admins["ben.rr"].id,
      )[0]?.id,
    );
    addDemoHost(appointment);
    expect(assigneesOf(id).sort()).toEqual([admins["anna.rr"].id, admins["ben.rr"].id].sort());
    // Again (a move to the same host): nothing changes, nobody is removed.
    addDemoHost(appointment);
    expect(assigneesOf(id)).toHaveLength(2);
  }, 60_000);
});
