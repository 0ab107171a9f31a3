import { and, asc, desc, eq, inArray, ne, or } from "drizzle-orm";
import { Zip, ZipDeflate, ZipPassThrough } from "fflate";
import { formatRequestId } from "~/lib/format";
import type { RequestJson } from "~/lib/request-json";
import { appointments, mailOutbox, requests } from "~db/schema";
import { adminUsernames } from "../accounts/admins.server";
import { followUpHistoryOf } from "../follow-ups/follow-ups.server";
import { notesOf } from "../notes/notes.server";
import { db } from "../platform/db.server";
import { adminExtrasOf, extrasOr } from "../requests/admin-extras.server";
import { serializeRequests } from "../requests/serialize.server";
import { openStoredFile } from "../uploads/store.server";
import { type AuditActor, audit } from "./audit.server";

export type PersonExport = {
  email: string;
  requestIds: number[];
  stream: ReadableStream<Uint8Array>;
};

/** Another request that may be the same person's: same e-mail or phone (the duplicate keys). */
export type ExportCandidate = { id: number; name: string; createdAt: string; by: string[] };

function sameContact(anchor: { id: number; emailKey: string | null; phoneKey: string | null }) {
  const keys = [
    anchor.emailKey ? eq(requests.emailKey, anchor.emailKey) : undefined,
    anchor.phoneKey ? eq(requests.phoneKey, anchor.phoneKey) : undefined,
  ].filter((k) => k !== undefined);
  return keys.length ? and(ne(requests.id, anchor.id), or(...keys)) : undefined;
}

/**
 * The other requests with the same e-mail address or phone number as request `id`, newest first:
 * offered one by one for the export (ADR 262), never added on their own — a shared address or
 * number is no proof of the same person.
 */
export function exportCandidates(id: number, limit = 50): ExportCandidate[] {
  const anchor = db().select().from(requests).where(eq(requests.id, id)).get();
  const condition = anchor ? sameContact(anchor) : undefined;
  if (!anchor || !condition) return [];
  return db()
    .select()
    .from(requests)
    .where(condition)
    .orderBy(desc(requests.id))
    .limit(limit)
    .all()
    .map((r) => ({
      id: r.id,
      name: r.name,
      createdAt: r.createdAt.toISOString(),
      by: [
        ...(r.emailKey && r.emailKey === anchor.emailKey ? ["E-Mail-Adresse"] : []),
        ...(r.phoneKey && r.phoneKey === anchor.phoneKey ? ["Telefonnummer"] : []),
      ],
    }));
}

/**
 * Art. 15/20 export for a person (ADR 262): the chosen request and the ones the admin added from
 * its candidates (`include`: ids with the same e-mail or phone; anything else is ignored), as
 * JSON plus their files and recordings, a ZIP streamed chunk by chunk (files are never held in
 * memory as a whole). Null when the request does not exist.
 */
export function exportPerson(id: number, include: number[] = []): PersonExport | null {
  const anchor = db().select().from(requests).where(eq(requests.id, id)).get();
  if (!anchor) return null;
  const condition = sameContact(anchor);
  const added =
    include.length && condition
      ? db()
          .select({ id: requests.id })
          .from(requests)
          .where(and(condition, inArray(requests.id, include.slice(0, 200))))
          .all()
          .map((r) => r.id)
      : [];
  const rows = db()
    .select()
    .from(requests)
    .where(inArray(requests.id, [id, ...added]))
    .orderBy(asc(requests.id))
    .all();
  const items = serializeRequests(rows);
  const ids = items.map((r) => r.id);
  const usernames = adminUsernames();
  const files = fileList(items);
  // The transcript of each recording and the messages to the person (ADRs 272, 273), the team's notes
  // and follow-ups about the request (ADRs 350, 351).
  const extras = adminExtrasOf(ids);
  const notes = notesOf(ids);
  const followUps = followUpHistoryOf(ids);
  const document = {
    exportiertAm: new Date().toISOString(),
    hinweis:
      "Die gespeicherten Daten der ausgewählten Anfragen (Art. 15 und 20 DSGVO). Dateien liegen im Ordner 'dateien'.",
    email: anchor.email,
    anfragen: items.map((r) => {
      const { voiceTranscript, voiceTranscriptStatus, messages } = extrasOr(extras.get(r.id));
      return {
        ...r,
        assigned_to: r.assigned_to.map((a) => usernames.get(a) ?? `#${a}`),
        voiceTranscript,
        voiceTranscriptStatus,
        nachrichten: messages,
        notizen: notes.get(r.id) ?? [],
        wiedervorlagen: followUps.get(r.id) ?? [],
      };
    }),
    termine: db()
      .select()
      .from(appointments)
      .where(inArray(appointments.requestId, ids))
      .all()
      .map((a) => ({
        requestId: a.requestId,
        anbieter: a.provider,
        termin: a.eventTypeName,
        beginn: a.startTime.toISOString(),
        dauerMinuten: a.durationMinutes,
        status: a.status,
        ort: a.location,
      })),
    emails: db()
      .select()
      .from(mailOutbox)
      .where(inArray(mailOutbox.requestId, ids))
      .all()
      .map((m) => ({
        requestId: m.requestId,
        an: m.to,
        betreff: m.subject,
        status: m.status,
        erstellt: m.createdAt.toISOString(),
        gesendet: m.sentAt?.toISOString() ?? null,
        text: m.text,
      })),
    dateien: files.map(({ path, requestId, originalName, size }) => ({
      requestId,
      pfad: path,
      originalName,
      size,
    })),
  };
  return { email: anchor.email, requestIds: ids, stream: zipStream(document, files) };
}

type ExportFile = {
  requestId: number;
  key: string;
  path: string;
  originalName: string;
  size: number | null;
};

function fileList(items: RequestJson[]): ExportFile[] {
  const out: ExportFile[] = [];
  for (const r of items) {
    const folder = `dateien/anfrage-${formatRequestId(r.id)}`;
    const used = new Set<string>();
    const unique = (name: string) => {
      const safe = name.replace(/[\\/:*?"<>|\p{Cc}]/gu, "_").slice(0, 150) || "datei";
      let candidate = safe;
      for (let i = 2; used.has(candidate.toLowerCase()); i++) candidate = `${i}-${safe}`;
      used.add(candidate.toLowerCase());
      return `${folder}/${candidate}`;
    };
    for (const a of r.attachments) {
      out.push({
        requestId: r.id,
        key: a.filename,
        path: unique(a.originalName),
        originalName: a.originalName,
        size: a.size,
      });
    }
    if (r.audioPath) {
      const ext = r.audioPath.split(".")[1] ?? "webm";
      out.push({
        requestId: r.id,
        key: r.audioPath,
        path: unique(`sprachnachricht.${ext}`),
        originalName: `sprachnachricht.${ext}`,
        size: null,
      });
    }
  }
  return out;
}

/** A streamed ZIP: the JSON deflated, files stored as they are (most are compressed already). */
function zipStream(document: unknown, files: ExportFile[]): ReadableStream<Uint8Array> {
  let wake: (() => void) | undefined;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        const zip = new Zip((error, chunk, final) => {
          if (error) return controller.error(error);
          controller.enqueue(chunk);
          if (final) controller.close();
        });
        const waitForReader = async () => {
          while ((controller.desiredSize ?? 1) <= 0) {
            await new Promise<void>((resolve) => {
              wake = resolve;
            });
          }
        };
        void (async () => {
          const json = new ZipDeflate("daten.json", { level: 6 });
          zip.add(json);
          json.push(new TextEncoder().encode(JSON.stringify(document, null, 2)), true);
          for (const file of files) {
            const stored = await openStoredFile(file.key);
            if (!stored) continue;
            const entry = new ZipPassThrough(file.path);
            zip.add(entry);
            const reader = stored.stream().getReader();
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              entry.push(value);
              await waitForReader();
            }
            entry.push(new Uint8Array(0), true);
          }
          zip.end();
        })().catch((error) => controller.error(error));
      },
      pull() {
        wake?.();
        wake = undefined;
      },
    },
    { highWaterMark: 4 },
  );
}

/** GET /api/admin/requests/{id}/export[?mit=<id>&mit=…]: the streamed ZIP, or 404. */
export function personExportResponse(id: number, actor: AuditActor, url?: URL): Response {
  const include = (url?.searchParams.getAll("mit") ?? [])
    .map(Number)
    .filter((n) => Number.isInteger(n) && n > 0);
  const result = exportPerson(id, include);
  if (!result) {
    return Response.json({ success: false, error: "Anfrage nicht gefunden." }, { status: 404 });
  }
  audit(actor, "export-person", `Anfrage #${formatRequestId(id)}`, {
    anfragen: result.requestIds.length,
    ...(result.requestIds.length > 1
      ? { weitere: result.requestIds.filter((r) => r !== id).map(formatRequestId) }
      : {}),
  });
  return new Response(result.stream, {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": `attachment; filename="daten-anfrage-${formatRequestId(id)}.zip"`,
      "Cache-Control": "no-store",
    },
  });
}
