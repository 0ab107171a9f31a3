// The pipeline over HTTP (ADRs 345–347): stages mapped to the statuses both ways, moves with
// history, audit and webhooks, the automatic moves of bookings, the promises' due times and
// filters, the board's API and page, the settings' rules, token scopes, and a parallel move.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_STAGES } from "~/lib/pipeline";
import { DEFAULT_PROMISES, promiseDueTimes } from "~/lib/promises";
import { promiseClosedDays } from "~/server/pipeline/config.server";
import { db } from "~/server/platform/db.server";
import { auditLog, requestStatusHistory, requests } from "~db/schema";
import { solvedAltcha } from "../altcha-solution";
import { apiLogin, insertAdmin } from "./auth-helpers";
import { nextBookableWeekday } from "./booking-days";
import { multipart, validFields } from "./landing-fixtures";
import { startTestServer, type TestServer } from "./server";

let server: TestServer;
let token: string;
let hooks: { event: string; data: { id: number; stage: { id: string } } }[] = [];
let receiver: Server;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hooks.push(JSON.parse(Buffer.concat(chunks).toString("utf8")));
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  server = await startTestServer({
    SUBMISSION_RATE_LIMIT: "1000/1h",
    BOOKING_RATE_LIMIT: "1000/1h",
    WEBHOOK_ALLOW_LOCAL: "true",
  });
  token = await server.adminToken();
  const port = (receiver.address() as AddressInfo).port;
  const saved = await server.fetch("/api/configuration", {
    method: "PATCH",
    token,
    json: {
      webhooks: [
        {
          id: "pipeline",
          url: `http://127.0.0.1:${port}/hook`,
          events: ["request.status_changed", "request.stage_changed"],
          secret: "geheim-0123456789-abcdef",
        },
      ],
    },
  });
  expect(saved.status).toBe(200);
});
afterAll(async () => {
  await server.close();
  await new Promise((resolve) => receiver.close(resolve));
});

async function submit(name = "Paula Pipeline") {
  const res = await server.fetch("/api/requests", {
    method: "POST",
    body: multipart(validFields({ name, altcha: await solvedAltcha(server.url) })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: number }).id;
}

const row = (id: number) => db().select().from(requests).where(eq(requests.id, id)).get();
const history = (id: number) =>
  db()
    .select()
    .from(requestStatusHistory)
    .where(eq(requestStatusHistory.requestId, id))
    .orderBy(requestStatusHistory.id)
    .all();
const move = (id: number, json: unknown, as = token) =>
  server.fetch(`/api/admin/requests/${id}/stage`, { method: "POST", token: as, json });

/** The webhooks delivered since the last call. */
async function delivered() {
  await server.drainWebhooks();
  const out = hooks;
  hooks = [];
  return out.map((h) => `${h.event} ${h.data.id} ${h.data.stage.id}`);
}

describe("stages and statuses", () => {
  it("a new request lands in the first stage of New with both due times from its receipt", async () => {
    const id = await submit();
    const r = row(id);
    expect(r?.stage).toBe("new");
    expect(r?.status).toBe("New");
    const due = promiseDueTimes(
      r?.createdAt as Date,
      DEFAULT_PROMISES,
      promiseClosedDays(r?.createdAt as Date),
    );
    expect(r?.contactDueAt?.toISOString()).toBe(due.contactDueAt.toISOString());
    expect(r?.trialDueAt?.toISOString()).toBe(due.trialDueAt.toISOString());
    const json = await (await server.fetch(`/api/admin/requests/${id}`, { token })).json();
    expect(json).toMatchObject({
      stage: { id: "new", name: "Neu" },
      lostReason: null,
      trialUrl: null,
      promises: {
        contact: { dueAt: due.contactDueAt.toISOString(), doneAt: null },
        trial: { dueAt: due.trialDueAt.toISOString(), doneAt: null },
      },
    });
    await delivered();
  });

  it("a stage move sets the mapped status, keeps the first contact, writes history, audit and both webhooks", async () => {
    const id = await submit();
    await delivered();
    const res = await move(id, { stage: "contacted" });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({
      success: true,
      moved: true,
      request: { status: "In Progress", stage: { id: "contacted", name: "Kontaktiert" } },
    });
    expect(body.message).toMatch(/ist jetzt in „Kontaktiert“/);
    const r = row(id);
    expect(r?.contactDoneAt).not.toBeNull();
    expect(
      history(id).map((h) => [h.fromStage, h.toStage, h.fromStatus, h.toStatus, h.cause]),
    ).toEqual([["new", "contacted", "New", "In Progress", "admin"]]);
    expect(await delivered()).toEqual([
      `request.status_changed ${id} contacted`,
      `request.stage_changed ${id} contacted`,
    ]);
    const audit = db()
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, `Anfrage #${String(id).padStart(4, "0")}`))
      .all();
    expect(audit.at(-1)).toMatchObject({ action: "status", actorName: "admin" });
    expect(JSON.parse(audit.at(-1)?.details ?? "{}")).toMatchObject({
      phase: { von: "Neu", nach: "Kontaktiert" },
    });

    // Between two stages of one status: only request.stage_changed, an audit "stage".
    expect((await move(id, { stage: "offer" })).status).toBe(200);
    expect(row(id)?.status).toBe("In Progress");
    expect(await delivered()).toEqual([`request.stage_changed ${id} offer`]);
    // The same stage again: nothing changes.
    const again = await (await move(id, { stage: "offer" })).json();
    expect(again.moved).toBe(false);
    expect(history(id)).toHaveLength(2);
    expect(await delivered()).toEqual([]);
  });

  it("a status from PUT or PATCH moves to the first stage of that status unless the stage maps to it", async () => {
    const id = await submit();
    await move(id, { stage: "offer" });
    const put = (json: unknown) =>
      server.fetch(`/api/admin/requests/${id}`, { method: "PUT", token, json });
    expect((await put({ status: "In Progress" })).status).toBe(200);
    expect(row(id)?.stage).toBe("offer");
    expect((await put({ status: "Done" })).status).toBe(200);
    expect(row(id)).toMatchObject({ stage: "won", status: "Done" });
    const patch = await server.fetch(`/api/requests/${id}`, {
      method: "PATCH",
      token,
      json: { status: "New" },
    });
    expect(patch.status).toBe(200);
    expect(row(id)).toMatchObject({ stage: "new", status: "New" });
    expect(history(id).map((h) => `${h.fromStage}→${h.toStage} ${h.cause}`)).toEqual([
      "new→offer admin",
      "offer→won status",
      "won→new status",
    ]);
    await delivered();
  });

  it("refuses an unknown stage and a missing or unknown reason with a German 400, changing nothing", async () => {
    const id = await submit();
    const before = row(id);
    const unknown = await move(id, { stage: "vertrag" });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({
      error: "Unbekannte Phase.",
      fieldErrors: { stage: ["Unbekannte Phase."] },
    });
    const noReason = await move(id, { stage: "lost" });
    expect(noReason.status).toBe(400);
    expect((await noReason.json()).fieldErrors).toEqual({
      reason: ["Bitte wählen Sie einen Grund für „Verloren“."],
    });
    const badReason = await move(id, { stage: "lost", reason: "Mondphase" });
    expect(badReason.status).toBe(400);
    expect((await badReason.json()).fieldErrors.reason).toEqual([
      "Bitte wählen Sie einen der Gründe aus der Liste.",
    ]);
    expect((await move(id, {})).status).toBe(400);
    expect(row(id)).toEqual(before);
    expect(history(id)).toEqual([]);

    const lost = await move(id, { stage: "lost", reason: "Kein Budget" });
    expect(lost.status).toBe(200);
    expect(row(id)).toMatchObject({ stage: "lost", status: "Done", lostReason: "Kein Budget" });
    expect(history(id).at(-1)?.reason).toBe("Kein Budget");
    // Out of "Verloren" the reason goes.
    await move(id, { stage: "contacted" });
    expect(row(id)?.lostReason).toBeNull();
    expect((await move(999_999, { stage: "new" })).status).toBe(404);
    await delivered();
  });

  it("two admins moving the same card at once end with one consistent stage and one history entry each", async () => {
    const id = await submit();
    const other = await insertAdmin("pipeline-parallel");
    const otherToken = await apiLogin(server, other.username, other.password);
    const [a, b] = await Promise.all([
      move(id, { stage: "demo" }),
      move(id, { stage: "won" }, otherToken),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const rows = history(id);
    expect(rows).toHaveLength(2);
    expect(new Set(rows.map((h) => h.adminId)).size).toBe(2);
    // One after the other: the second starts where the first ended.
    expect(rows[1].fromStage).toBe(rows[0].toStage);
    const final = row(id);
    expect(final?.stage).toBe(rows[1].toStage);
    expect(final?.status).toBe(DEFAULT_STAGES.find((s) => s.id === final?.stage)?.status);
    await delivered();
  });
});

describe("automatic moves", () => {
  async function book(id: number) {
    const day = nextBookableWeekday();
    const slots = await (
      await server.fetch("/api/calcom/available-slots", {
        method: "POST",
        json: { startDate: day, day },
      })
    ).json();
    const res = await server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token,
      json: { requestId: id, startTime: slots.slots[0].time, timeZone: "Europe/Berlin" },
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { appointment: { id: number } }).appointment.id;
  }

  it("a booking moves to Demo gebucht, its cancellation back to the stage before it", async () => {
    const id = await submit("Bruno Buchung");
    await delivered();
    const appointment = await book(id);
    expect(row(id)).toMatchObject({ stage: "demo", status: "In Progress" });
    expect(history(id).at(-1)).toMatchObject({ cause: "booking", adminId: null });
    expect(await delivered()).toEqual([
      `request.status_changed ${id} demo`,
      `request.stage_changed ${id} demo`,
    ]);
    const cancelled = await server.fetch(`/api/admin/appointments/${appointment}/cancel`, {
      method: "POST",
      token,
    });
    expect(cancelled.status).toBe(200);
    expect(row(id)?.stage).toBe("contacted");
    expect(history(id).at(-1)).toMatchObject({ cause: "booking-cancelled", toStage: "contacted" });
    expect(await delivered()).toEqual([`request.stage_changed ${id} contacted`]);
  });

  it("never moves backwards or out of Gewonnen/Verloren", async () => {
    const ahead = await submit("Anna Angebot");
    await move(ahead, { stage: "offer" });
    const won = await submit("Greta Gewonnen");
    await move(won, { stage: "won" });
    await delivered();
    await book(ahead);
    await book(won);
    expect(row(ahead)?.stage).toBe("offer");
    expect(row(won)?.stage).toBe("won");
    expect(await delivered()).toEqual([]);
  });
});

describe("the board and the list's pipeline filters", () => {
  it("GET /api/admin/pipeline: every stage in order with its count, without archived and held requests", async () => {
    const active = await submit("Board Aktiv");
    const archived = await submit("Board Archiv");
    await server.fetch(`/api/admin/requests/${archived}/archive`, {
      method: "PATCH",
      token,
      json: { archived: true },
    });
    const held = await submit("Board Zurückgehalten");
    db().update(requests).set({ quarantinedAt: new Date() }).where(eq(requests.id, held)).run();
    const res = await server.fetch("/api/admin/pipeline", { token });
    expect(res.status).toBe(200);
    const board = (await res.json()) as {
      stages: { id: string; name: string; count: number; requests: { id: number }[] }[];
      lostReasons: string[];
    };
    expect(board.stages.map((s) => s.name)).toEqual(DEFAULT_STAGES.map((s) => s.name));
    const ids = board.stages.flatMap((s) => s.requests.map((r) => r.id));
    expect(ids).toContain(active);
    expect(ids).not.toContain(archived);
    expect(ids).not.toContain(held);
    const fresh = board.stages[0];
    const counted = db()
      .$client.prepare(
        "SELECT count(*) AS n FROM requests WHERE stage = 'new' AND archived = 0 AND quarantined_at IS NULL",
      )
      .get() as { n: number };
    expect(fresh.count).toBe(counted.n);
    expect(board.lostReasons).toContain("Kein Budget");

    // Mine: only what is assigned to the caller.
    const me = (await (await server.fetch("/api/admin/auth/verify", { token })).json()).admin.id;
    await server.fetch(`/api/admin/requests/${active}/assign`, {
      method: "POST",
      token,
      json: { action: "add", admin_id: me },
    });
    const mine = await (await server.fetch("/api/admin/pipeline?assignee=me", { token })).json();
    expect(
      mine.stages.flatMap((s: { requests: { id: number }[] }) => s.requests.map((r) => r.id)),
    ).toEqual([active]);
    expect((await server.fetch("/api/admin/pipeline")).status).toBe(401);
    await delivered();
  });

  it("filters the list by stage and by open promises (fällig / überfällig)", async () => {
    const late = await submit("Lotta Überfällig");
    const today = await submit("Tom Heute");
    const past = new Date(Date.now() - 3_600_000);
    db()
      .update(requests)
      .set({ contactDueAt: past, trialDueAt: past })
      .where(eq(requests.id, late))
      .run();
    const soon = new Date(Date.now() + 60_000);
    db().update(requests).set({ contactDueAt: soon }).where(eq(requests.id, today)).run();
    const list = async (query: string) =>
      (
        (await (await server.fetch(`/api/admin/requests?${query}`, { token })).json()) as {
          requests: { id: number }[];
        }
      ).requests.map((r) => r.id);
    const overdue = await list("promise=overdue");
    expect(overdue).toContain(late);
    expect(overdue).not.toContain(today);
    expect(await list("promise=due")).toContain(today);
    // Kept (a stage past Neu): no longer overdue for the first contact, still for the trial.
    await move(late, { stage: "contacted" });
    expect(await list("promise=overdue")).toContain(late);
    await move(late, { stage: "won" });
    expect(await list("promise=overdue")).not.toContain(late);
    expect(await list("stage=won")).toContain(late);
    const cookie = await server.adminCookie();
    const page = await (
      await server.fetch("/admin/requests?promise=overdue", { headers: { cookie } })
    ).text();
    expect(page).toContain("Versprechen: Überfällig");
    await delivered();
  });

  it("the dashboard's figures: due today, overdue, kept in the last 30 days", async () => {
    const res = await server.fetch("/api/admin/stats", { token });
    const { promises } = (await res.json()) as {
      promises: { dueToday: number; overdue: number; last30Days: { kept: number; share: number } };
    };
    expect(promises.dueToday).toBeGreaterThanOrEqual(1);
    expect(promises.overdue).toBeGreaterThanOrEqual(0);
    expect(promises.last30Days.share === null || promises.last30Days.share <= 1).toBe(true);
    const cookie = await server.adminCookie();
    const page = await (await server.fetch("/admin/dashboard", { headers: { cookie } })).text();
    expect(page).toContain("Versprechen");
    expect(page).toContain("Heute fällig");
  });
});

describe("the pipeline's settings over the API", () => {
  const patch = (pipeline: unknown) =>
    server.fetch("/api/configuration", { method: "PATCH", token, json: { pipeline } });

  it("refuses a list without a stage per status, duplicate names, more than 20 stages, unknown statuses", async () => {
    const cases: [unknown, string, string][] = [
      [
        { stages: DEFAULT_STAGES.filter((s) => s.status !== "New") },
        "pipeline.stages",
        "Für jeden Status braucht es mindestens eine Phase (es fehlt: Neu).",
      ],
      [
        { stages: [...DEFAULT_STAGES, { name: "Neu", status: "New" }] },
        "pipeline.stages.7.name",
        "Eine Phase mit diesem Namen gibt es bereits.",
      ],
      [
        {
          stages: Array.from({ length: 21 }, (_, i) => ({
            name: `P${i}`,
            status: ["New", "In Progress", "Done"][i % 3],
          })),
        },
        "pipeline.stages",
        "Höchstens 20 Phasen.",
      ],
      [
        { stages: [{ name: "X", status: "Offen" }, ...DEFAULT_STAGES] },
        "pipeline.stages.0.status",
        "Unbekannter Status. Erlaubt: New, In Progress, Done.",
      ],
    ];
    for (const [pipeline, field, message] of cases) {
      const res = await patch(pipeline);
      expect(res.status, field).toBe(400);
      expect((await res.json()).fieldErrors[field], field).toEqual([message]);
    }
    const stored = await (await server.fetch("/api/configuration", { token })).json();
    expect(stored.pipeline.stages).toEqual(DEFAULT_STAGES);
  });

  it("a renamed stage keeps its requests; a stage holding requests cannot be removed", async () => {
    const id = await submit("Rita Umbenannt");
    await move(id, { stage: "offer" });
    const renamed = DEFAULT_STAGES.map((s) =>
      s.id === "offer" ? { ...s, name: "Angebot raus" } : s,
    );
    expect((await patch({ stages: renamed })).status).toBe(200);
    const json = await (await server.fetch(`/api/admin/requests/${id}`, { token })).json();
    expect(json.stage).toEqual({ id: "offer", name: "Angebot raus" });
    const removed = await patch({ stages: renamed.filter((s) => s.id !== "offer") });
    expect(removed.status).toBe(400);
    expect((await removed.json()).fieldErrors["pipeline.stages"][0]).toMatch(
      /^„Angebot raus“ enthält noch \d+ Anfragen? – verschieben Sie sie zuerst/,
    );
    expect((await patch({ stages: DEFAULT_STAGES })).status).toBe(200);
    await delivered();
  });
});

describe("token scopes", () => {
  it("moves need stages:write; the board reads with requests:read", async () => {
    const id = await submit();
    const owner = await insertAdmin("pipeline-integrator");
    const session = await apiLogin(server, owner.username, owner.password);
    const create = async (scopes: string[]) =>
      (
        (await (
          await server.fetch("/api/admin/api-tokens", {
            method: "POST",
            token: session,
            json: { name: scopes.join(","), scopes, password: owner.password },
          })
        ).json()) as { token: string }
      ).token;
    const writer = await create(["requests:write", "requests:read"]);
    const mover = await create(["stages:write"]);
    expect((await move(id, { stage: "contacted" }, writer)).status).toBe(403);
    expect((await move(id, { stage: "contacted" }, mover)).status).toBe(200);
    expect((await server.fetch("/api/admin/pipeline", { token: writer })).status).toBe(200);
    expect((await server.fetch("/api/admin/pipeline", { token: mover })).status).toBe(403);
    await delivered();
  });
});

describe("the pages without JavaScript", () => {
  it("the board shows the columns; a move through its form answers with a toast; Verloren asks for the reason", async () => {
    const id = await submit("Nora Nojs");
    const cookie = await server.adminCookie();
    const board = await server.fetch("/admin/requests/board", { headers: { cookie } });
    expect(board.status).toBe(200);
    const html = await board.text();
    for (const stage of DEFAULT_STAGES) expect(html).toContain(`id="phase-${stage.id}"`);
    expect(html).toContain("Nora Nojs");
    const post = (form: Record<string, string>) =>
      server.fetch("/admin/requests/board", {
        method: "POST",
        headers: {
          cookie,
          origin: server.url,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(form),
      });
    const moved = await post({ intent: "stage", id: String(id), stage: "contacted" });
    expect(moved.status).toBe(302);
    expect(moved.headers.get("location")).toBe("/admin/requests/board");
    expect(row(id)?.stage).toBe("contacted");
    const asked = await post({ intent: "stage", id: String(id), stage: "lost" });
    expect(asked.status).toBe(400);
    const page = await asked.text();
    expect(page).toContain("Grund für „Verloren“");
    expect(page).toContain("Kein Budget");
    expect(row(id)?.stage).toBe("contacted");
    const lost = await post({
      intent: "stage",
      id: String(id),
      stage: "lost",
      reason: "Kein Budget",
    });
    expect(lost.status).toBe(302);
    expect(row(id)).toMatchObject({ stage: "lost", lostReason: "Kein Budget" });
    await delivered();
  });
});

describe("a held request", () => {
  it("has no due times until it is released; then they count from the release", async () => {
    const id = await submit("Hella Held");
    db()
      .update(requests)
      .set({ quarantinedAt: new Date(), contactDueAt: null, trialDueAt: null })
      .where(eq(requests.id, id))
      .run();
    const before = Date.now();
    const released = await server.fetch(`/api/requests/${id}`, {
      method: "PATCH",
      token,
      json: { quarantined: false },
    });
    expect(released.status).toBe(200);
    const r = row(id);
    const due = promiseDueTimes(
      r?.updatedAt as Date,
      DEFAULT_PROMISES,
      promiseClosedDays(new Date()),
    );
    expect(r?.contactDueAt?.getTime()).toBeGreaterThanOrEqual(before);
    expect(Math.abs((r?.trialDueAt?.getTime() ?? 0) - due.trialDueAt.getTime())).toBeLessThan(2000);
    await delivered();
  });
});
