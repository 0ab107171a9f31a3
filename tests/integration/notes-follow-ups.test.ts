// Notes and follow-ups over HTTP (ADRs 350, 351): every /api twin with its token scopes, the page's
// forms, mentions mailed with a link (never the text), refusals at the field that change nothing,
// the 15-minute edit window of the author, the markers "Antwort erhalten" after a reply by IMAP
// (the loopback stand-in) and "Termin gebucht" after a booking, the tasks list, the person export
// and the erasure, and never a note in a webhook.
import { unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { berlinTime, berlinToday } from "~/lib/booking-calendar";
import { FOLLOW_UP_MESSAGES, oneYearAfter } from "~/lib/follow-ups";
import { NOTE_MESSAGES } from "~/lib/request-notes";
import { apiLogin, insertAdmin, testDb } from "./auth-helpers";
import { nextBookableWeekday } from "./booking-days";
import { imapStack, leadWithMessage, rfc822, submitLead } from "./imap-fixtures";

const s = imapStack("notiz-geheim");

function sql<T>(query: string, ...params: unknown[]): T[] {
  const db = testDb();
  try {
    return db.prepare(query).all(...params) as T[];
  } finally {
    db.close();
  }
}
const run = (query: string, ...params: unknown[]) => {
  const db = testDb();
  try {
    db.prepare(query).run(...params);
  } finally {
    db.close();
  }
};

type Note = {
  id: number;
  body: string;
  author: string;
  mentions: string[];
  editedAt: string | null;
};
type FollowUp = { id: number; due: string; text: string; admin: string; answer: string | null };

const api = (path: string, token: string, init: { method?: string; json?: unknown } = {}) =>
  s.server.fetch(path, { ...init, token });

async function tokenWith(session: string, password: string, scopes: string[]) {
  const res = await s.server.fetch("/api/admin/api-tokens", {
    method: "POST",
    token: session,
    json: { name: `t-${scopes.join("-")}`, scopes, password },
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { token: string }).token;
}

const mentionMails = (requestId: number) =>
  sql<{ to: string; subject: string; text: string }>(
    "SELECT \"to\", subject, text FROM mail_outbox WHERE kind = 'note-mention' AND request_id = ?",
    requestId,
  );

describe("notes", () => {
  it("POST stores a note with line breaks, mails the mentioned admin a link (not the text), audits", async () => {
    const lea = await insertAdmin("lea.notiz");
    const lead = await submitLead(s, { email: "nora.notiz@example.com", name: "Nora Notiz" });
    const res = await api(`/api/admin/requests/${lead.id}/notes`, s.token, {
      method: "POST",
      json: { body: "Rückruf am Montag.\r\nBitte @Lea.Notiz übernehmen – geheim <b>x</b>." },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { note: Note; mentioned: string[] };
    expect(body.note).toMatchObject({
      body: "Rückruf am Montag.\nBitte @Lea.Notiz übernehmen – geheim <b>x</b>.",
      author: "admin",
      mentions: ["lea.notiz"],
      editedAt: null,
    });
    expect(body.mentioned).toEqual(["lea.notiz"]);
    const [mail] = mentionMails(lead.id);
    expect(mail?.to).toBe(lea.email);
    expect(mail?.subject).toBe(
      `admin hat Sie in einer Notiz zu Anfrage #${String(lead.id).padStart(4, "0")} erwähnt`,
    );
    expect(mail?.text).toContain(`/admin/requests?requestId=${lead.id}#notizen`);
    expect(mail?.text).not.toContain("Rückruf am Montag");
    await s.server.drainOutbox();
    const received = await s.smtp.waitFor(lea.email, /erwähnt/);
    expect(received.text).toContain(`/admin/requests?requestId=${lead.id}#notizen`);

    // In the request JSON (a session sees the notes), escaped on the page.
    const json = await (await api(`/api/admin/requests/${lead.id}`, s.token)).json();
    expect(json.notes.map((n: Note) => n.body)).toEqual([body.note.body]);
    const cookie = await s.server.adminCookie();
    const html = await (
      await s.server.fetch(`/admin/requests?requestId=${lead.id}`, { headers: { cookie } })
    ).text();
    expect(html).toContain("geheim &lt;b&gt;x&lt;/b&gt;.");
    expect(html).not.toContain("geheim <b>x</b>");
    const audited = sql<{ action: string; details: string }>(
      "SELECT action, details FROM audit_log WHERE action = 'note-added' AND target = ?",
      `Anfrage #${String(lead.id).padStart(4, "0")}`,
    );
    expect(audited).toHaveLength(1);
    expect(audited[0]?.details).not.toContain("Rückruf");
  });

  it("refuses empty, over-long and unknown or inactive mentions at `body` — nothing stored, nobody mailed", async () => {
    await insertAdmin("ina.inaktiv", { active: false });
    const lead = await submitLead(s, { email: "rita.refused@example.com" });
    const post = (body: unknown) =>
      api(`/api/admin/requests/${lead.id}/notes`, s.token, { method: "POST", json: { body } });
    const cases: [unknown, string][] = [
      ["   ", NOTE_MESSAGES.bodyRequired],
      ["x".repeat(5001), NOTE_MESSAGES.bodyTooLong],
      ["Bitte @niemand.da ansehen", NOTE_MESSAGES.unknownMention(["niemand.da"])],
      ["Frag @ina.inaktiv", NOTE_MESSAGES.unknownMention(["ina.inaktiv"])],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      expect(res.status).toBe(400);
      const answer = await res.json();
      expect(answer.error).toBe(message);
      expect(answer.fieldErrors.body).toEqual([message]);
    }
    expect(sql("SELECT id FROM request_notes WHERE request_id = ?", lead.id)).toEqual([]);
    expect(mentionMails(lead.id)).toEqual([]);
    // An e-mail address is no mention; 5,000 characters are fine.
    expect((await post(`Kunde schreibt an info@firma.de ${"x".repeat(4960)}`)).status).toBe(201);

    // The page's form: the same refusal at the field, the draft comes back, nothing stored.
    const cookie = await s.server.adminCookie();
    const page = await s.server.fetch(`/admin/requests?requestId=${lead.id}`, {
      method: "POST",
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ intent: "note-add", id: String(lead.id), body: "Hallo @wer" }),
    });
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain(NOTE_MESSAGES.unknownMention(["wer"]));
    expect(html).toContain("Hallo @wer</textarea>");
    expect(sql("SELECT id FROM request_notes WHERE request_id = ?", lead.id)).toHaveLength(1);
  });

  it("the author edits or deletes within 15 minutes; another admin (403) or later (409) changes nothing", async () => {
    const max = await insertAdmin("max.kollege");
    const maxToken = await apiLogin(s.server, max.username, max.password);
    const lead = await submitLead(s, { email: "edith.edit@example.com" });
    const created = (await (
      await api(`/api/admin/requests/${lead.id}/notes`, s.token, {
        method: "POST",
        json: { body: "Erste Fassung" },
      })
    ).json()) as { note: Note };
    const url = `/api/admin/requests/${lead.id}/notes/${created.note.id}`;
    const stored = () =>
      sql<{ body: string }>("SELECT body FROM request_notes WHERE id = ?", created.note.id)[0]
        ?.body;

    const foreign = await api(url, maxToken, { method: "PATCH", json: { body: "Fremd" } });
    expect(foreign.status).toBe(403);
    expect((await foreign.json()).fieldErrors.body).toEqual([NOTE_MESSAGES.notAuthor]);
    expect((await api(url, maxToken, { method: "DELETE" })).status).toBe(403);

    // The author: edited (a newly mentioned admin is told), then too late.
    const edited = await api(url, s.token, {
      method: "PATCH",
      json: { body: "Zweite Fassung für @max.kollege" },
    });
    expect(edited.status).toBe(200);
    expect((await edited.json()).note).toMatchObject({ body: "Zweite Fassung für @max.kollege" });
    expect(mentionMails(lead.id).map((m) => m.to)).toEqual([max.email]);
    expect(sql("SELECT id FROM audit_log WHERE action = 'note-edited'")).toHaveLength(1);

    run(
      "UPDATE request_notes SET created_at = ? WHERE id = ?",
      Date.now() - 16 * 60_000,
      created.note.id,
    );
    const late = await api(url, s.token, { method: "PATCH", json: { body: "Dritte Fassung" } });
    expect(late.status).toBe(409);
    expect((await late.json()).error).toBe(NOTE_MESSAGES.tooLate);
    expect((await api(url, s.token, { method: "DELETE" })).status).toBe(409);
    expect(stored()).toBe("Zweite Fassung für @max.kollege");

    // A fresh note is deleted by its author.
    const second = (await (
      await api(`/api/admin/requests/${lead.id}/notes`, s.token, {
        method: "POST",
        json: { body: "Gleich weg" },
      })
    ).json()) as { note: Note };
    const gone = await api(`/api/admin/requests/${lead.id}/notes/${second.note.id}`, s.token, {
      method: "DELETE",
    });
    expect(gone.status).toBe(200);
    const list = await (await api(`/api/admin/requests/${lead.id}/notes`, s.token)).json();
    expect(list.notes.map((n: Note) => n.body)).toEqual(["Zweite Fassung für @max.kollege"]);
    expect(
      (await api(`/api/admin/requests/${lead.id}/notes/999999`, s.token, { method: "DELETE" }))
        .status,
    ).toBe(404);
  });

  it("API tokens: notes only with notes:read / notes:write; without them no `notes` key at all", async () => {
    const ava = await insertAdmin("ava.token");
    const session = await apiLogin(s.server, ava.username, ava.password);
    const readOnly = await tokenWith(session, ava.password, ["requests:read"]);
    const notesRead = await tokenWith(session, ava.password, ["requests:read", "notes:read"]);
    const notesWrite = await tokenWith(session, ava.password, ["notes:write"]);
    const lead = await submitLead(s, { email: "tina.token@example.com" });
    await api(`/api/admin/requests/${lead.id}/notes`, s.token, {
      method: "POST",
      json: { body: "Interna" },
    });

    const plain = await (await api(`/api/admin/requests/${lead.id}`, readOnly)).json();
    expect(plain).not.toHaveProperty("notes");
    expect(plain).not.toHaveProperty("followUp");
    expect(JSON.stringify(plain)).not.toContain("Interna");
    const list = await (await api("/api/admin/requests", readOnly)).json();
    expect(JSON.stringify(list)).not.toContain("Interna");
    expect((await api(`/api/admin/requests/${lead.id}/notes`, readOnly)).status).toBe(403);

    const withNotes = await (await api(`/api/admin/requests/${lead.id}`, notesRead)).json();
    expect(withNotes.notes.map((n: Note) => n.body)).toEqual(["Interna"]);
    expect(withNotes).not.toHaveProperty("followUp");
    const all = await (await api("/api/admin/requests", notesRead)).json();
    expect(all.requests.find((r: { id: number }) => r.id === lead.id).notes).toHaveLength(1);
    const post = (token: string) =>
      api(`/api/admin/requests/${lead.id}/notes`, token, {
        method: "POST",
        json: { body: "Per Token" },
      });
    expect((await post(notesRead)).status).toBe(403);
    const written = await post(notesWrite);
    expect(written.status).toBe(201);
    expect((await written.json()).note.author).toBe("ava.token");
  });
});

describe("follow-ups", () => {
  const today = () => berlinToday();
  const day = (n: number) => {
    const d = new Date(`${today()}T12:00:00Z`);
    d.setUTCDate(d.getUTCDate() + n);
    return d.toISOString().slice(0, 10);
  };

  it("PUT sets (preset or day) and moves the one open follow-up; GET; done; tasks list; audited", async () => {
    const lead = await submitLead(s, { email: "fritz.follow@example.com", name: "Fritz Follow" });
    const url = `/api/admin/requests/${lead.id}/follow-up`;
    expect((await (await api(url, s.token)).json()).followUp).toBeNull();
    const set = await api(url, s.token, {
      method: "PUT",
      json: { preset: "morgen", text: "Angebot nachfassen" },
    });
    expect(set.status).toBe(200);
    expect((await set.json()).followUp).toMatchObject({
      due: day(1),
      text: "Angebot nachfassen",
      admin: "admin",
      answer: null,
    });
    const moved = await api(url, s.token, { method: "PUT", json: { due: today() } });
    expect((await moved.json()).followUp).toMatchObject({ due: today(), text: "" });
    expect(
      sql("SELECT id FROM follow_ups WHERE request_id = ? AND done_at IS NULL", lead.id),
    ).toHaveLength(1);

    const tasks = await (await api("/api/admin/tasks", s.token)).json();
    expect(
      tasks.buckets.today.items.map((t: { requestId: number; requestName: string }) => [
        t.requestId,
        t.requestName,
      ]),
    ).toContainEqual([lead.id, "Fritz Follow"]);

    const done = await api(`${url}/done`, s.token, { method: "POST" });
    expect(done.status).toBe(200);
    expect((await done.json()).followUp.doneAt).toBeTruthy();
    expect((await api(`${url}/done`, s.token, { method: "POST" })).status).toBe(404);
    expect((await (await api(url, s.token)).json()).followUp).toBeNull();
    const after = await (await api("/api/admin/tasks", s.token)).json();
    expect(JSON.stringify(after)).not.toContain("Fritz Follow");
    expect(
      sql<{ action: string }>(
        "SELECT action FROM audit_log WHERE action LIKE 'follow-up-%' AND target = ? ORDER BY id",
        `Anfrage #${String(lead.id).padStart(4, "0")}`,
      ).map((a) => a.action),
    ).toEqual(["follow-up-set", "follow-up-set", "follow-up-done"]);
  });

  it("refuses a day in the past, more than a year ahead or a long text at its field; nothing changes", async () => {
    const lead = await submitLead(s, { email: "paul.past@example.com" });
    const url = `/api/admin/requests/${lead.id}/follow-up`;
    await api(url, s.token, { method: "PUT", json: { due: day(2) } });
    const cases: [unknown, string, string][] = [
      [{ due: day(-1) }, "due", FOLLOW_UP_MESSAGES.dayPast],
      [{ due: oneYearAfter(day(1)) }, "due", FOLLOW_UP_MESSAGES.dayTooFar],
      [{ due: "morgen" }, "due", FOLLOW_UP_MESSAGES.dayInvalid],
      [{}, "due", FOLLOW_UP_MESSAGES.dayRequired],
      [{ preset: "morgen", text: "x".repeat(201) }, "text", FOLLOW_UP_MESSAGES.textTooLong],
    ];
    for (const [json, field, message] of cases) {
      const res = await api(url, s.token, { method: "PUT", json });
      expect(res.status).toBe(400);
      expect((await res.json()).fieldErrors[field]).toEqual([message]);
    }
    expect((await (await api(url, s.token)).json()).followUp.due).toBe(day(2));
    expect(
      (await api(url, s.token, { method: "PUT", json: { due: oneYearAfter(today()) } })).status,
    ).toBe(200);

    // The page's form: the preset button in one click, a past day refused at the field.
    const cookie = await s.server.adminCookie();
    const post = (fields: Record<string, string>) =>
      s.server.fetch(`/admin/requests?requestId=${lead.id}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "follow-up-set", id: String(lead.id), ...fields }),
      });
    const refused = await post({ due: day(-3), text: "Zu spät" });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain(FOLLOW_UP_MESSAGES.dayPast);
    expect(html).toContain('value="Zu spät"');
    const clicked = await post({ preset: "3-tage", due: "" });
    expect(clicked.status).toBe(302);
    expect((await (await api(url, s.token)).json()).followUp.due).toBe(day(3));
  });

  it("a reply by IMAP marks the open follow-up 'Antwort erhalten'; a booking 'Termin gebucht'", async () => {
    const { lead, mail } = await leadWithMessage(s, "rosa.reply@example.com", "Rückfrage Rosa");
    const url = `/api/admin/requests/${lead.id}/follow-up`;
    await api(url, s.token, {
      method: "PUT",
      json: { preset: "naechste-woche", text: "Nachhaken" },
    });
    s.imap.add(
      rfc822(
        {
          From: "rosa.reply@example.com",
          To: mail.replyTo[0] as string,
          Subject: "Re: Rückfrage Rosa",
          "Message-ID": "<antwort-rosa@example.org>",
        },
        "Ja, gern.",
      ),
    );
    expect(await s.server.testHooks.drainImapReplies()).toBe(1);
    const replied = (await (await api(url, s.token)).json()).followUp as FollowUp;
    expect(replied).toMatchObject({ answer: "reply", text: "Nachhaken" });
    const cookie = await s.server.adminCookie();
    const tasksPage = await (
      await s.server.fetch("/admin/aufgaben", { headers: { cookie } })
    ).text();
    expect(tasksPage).toContain("Antwort erhalten");

    // The booking (the built-in scheduler) of another lead with an open follow-up.
    const booker = await submitLead(s, { email: "bea.booking@example.com" });
    const bookerUrl = `/api/admin/requests/${booker.id}/follow-up`;
    await api(bookerUrl, s.token, { method: "PUT", json: { preset: "morgen" } });
    const booked = await s.server.fetch("/api/calcom/book-appointment", {
      method: "POST",
      token: s.token,
      json: {
        requestId: booker.id,
        startTime: berlinTime(nextBookableWeekday(), 11).toISOString(),
        timeZone: "Europe/Berlin",
      },
    });
    expect(booked.status).toBe(201);
    expect(((await (await api(bookerUrl, s.token)).json()).followUp as FollowUp).answer).toBe(
      "booking",
    );
    // Setting it again is a new promise: the mark is gone.
    await api(bookerUrl, s.token, { method: "PUT", json: { preset: "3-tage" } });
    expect(((await (await api(bookerUrl, s.token)).json()).followUp as FollowUp).answer).toBeNull();
  });

  it("API tokens: follow-ups only with followups:read / followups:write", async () => {
    const tom = await insertAdmin("tom.tasks");
    const session = await apiLogin(s.server, tom.username, tom.password);
    const reader = await tokenWith(session, tom.password, ["requests:read", "followups:read"]);
    const writer = await tokenWith(session, tom.password, ["followups:write"]);
    const notes = await tokenWith(session, tom.password, ["notes:read", "notes:write"]);
    const lead = await submitLead(s, { email: "sara.scope@example.com" });
    const url = `/api/admin/requests/${lead.id}/follow-up`;
    expect((await api(url, notes, { method: "PUT", json: { preset: "morgen" } })).status).toBe(403);
    expect((await api(url, reader, { method: "PUT", json: { preset: "morgen" } })).status).toBe(
      403,
    );
    const set = await api(url, writer, { method: "PUT", json: { preset: "morgen" } });
    expect(set.status).toBe(200);
    expect((await set.json()).followUp.admin).toBe("tom.tasks");
    expect((await api(url, notes)).status).toBe(403);
    expect((await api("/api/admin/tasks", notes)).status).toBe(403);
    const mine = await (await api("/api/admin/tasks", reader)).json();
    expect(mine.buckets.week.total + mine.buckets.today.total + mine.buckets.later.total).toBe(1);
    const json = await (await api(`/api/admin/requests/${lead.id}`, reader)).json();
    expect(json.followUp).toMatchObject({ due: day(1), admin: "tom.tasks" });
    expect(json).not.toHaveProperty("notes");
    expect((await api(`${url}/done`, reader, { method: "POST" })).status).toBe(403);
    expect((await api(`${url}/done`, writer, { method: "POST" })).status).toBe(200);
  });
});

describe("notes and follow-ups: webhooks, export, erasure", () => {
  it("never in a webhook; in the person export; erased with the request", async () => {
    const hooks: string[] = [];
    const { createServer } = await import("node:http");
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        hooks.push(Buffer.concat(chunks).toString("utf8"));
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const port = (receiver.address() as { port: number }).port;
    const patched = await api("/api/configuration", s.token, {
      method: "PATCH",
      json: {
        webhooks: [
          {
            id: "hook-notes",
            url: `http://127.0.0.1:${port}/hook`,
            events: ["request.status_changed"],
            secret: "geheimnis-der-notizen",
            format: "json",
          },
        ],
      },
    });
    expect(patched.status).toBe(200);
    try {
      const lead = await submitLead(s, { email: "wera.webhook@example.com" });
      await api(`/api/admin/requests/${lead.id}/notes`, s.token, {
        method: "POST",
        json: { body: "Streng intern 4711" },
      });
      await api(`/api/admin/requests/${lead.id}/follow-up`, s.token, {
        method: "PUT",
        json: { preset: "morgen", text: "Intern nachfassen" },
      });
      const status = await api(`/api/admin/requests/${lead.id}`, s.token, {
        method: "PUT",
        json: { status: "In Progress" },
      });
      expect(status.status).toBe(200);
      expect((await status.json()).request.notes).toHaveLength(1);
      await s.server.drainWebhooks();
      const body = hooks.find((h) => h.includes(`"id":${lead.id}`));
      expect(body).toBeDefined();
      expect(body).not.toContain("Streng intern");
      expect(body).not.toContain("Intern nachfassen");
      expect(body).not.toContain('"notes"');

      const exported = await api(`/api/admin/requests/${lead.id}/export`, s.token);
      expect(exported.status).toBe(200);
      const files = unzipSync(new Uint8Array(await exported.arrayBuffer()));
      const document = files["daten.json"];
      const json = JSON.parse(new TextDecoder().decode(document));
      expect(json.anfragen[0].notizen.map((n: Note) => n.body)).toEqual(["Streng intern 4711"]);
      expect(json.anfragen[0].wiedervorlagen[0]).toMatchObject({ text: "Intern nachfassen" });

      const erased = await api(`/api/requests/${lead.id}`, s.token, { method: "DELETE" });
      expect([200, 204]).toContain(erased.status);
      expect(sql("SELECT id FROM request_notes WHERE request_id = ?", lead.id)).toEqual([]);
      expect(sql("SELECT id FROM follow_ups WHERE request_id = ?", lead.id)).toEqual([]);
    } finally {
      await api("/api/configuration", s.token, { method: "PATCH", json: { webhooks: [] } });
      receiver.close();
    }
  });

  it("anonymising by retention removes notes and follow-ups too", async () => {
    const lead = await submitLead(s, { email: "anja.anonym@example.com" });
    await api(`/api/admin/requests/${lead.id}/notes`, s.token, {
      method: "POST",
      json: { body: "Anja ruft zurück" },
    });
    await api(`/api/admin/requests/${lead.id}/follow-up`, s.token, {
      method: "PUT",
      json: { preset: "morgen" },
    });
    const { eraseRequest } = await import("~/server/privacy/erasure.server");
    expect((await eraseRequest(lead.id, "anonymize")).ok).toBe(true);
    expect(sql("SELECT id FROM requests WHERE id = ?", lead.id)).toHaveLength(1);
    expect(sql("SELECT id FROM request_notes WHERE request_id = ?", lead.id)).toEqual([]);
    expect(sql("SELECT id FROM follow_ups WHERE request_id = ?", lead.id)).toEqual([]);
  }, 60_000);
});
