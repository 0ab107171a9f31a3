import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { attributionOf } from "~/lib/attribution";
import { emailKey, phoneKey } from "~/lib/contact-keys";
import { EMBED_TOKEN_FIELD } from "~/lib/embed";
import { entryStage } from "~/lib/pipeline";
import { ALTCHA_FIELD, HONEYPOT_FIELD, RequestFormSchema } from "~/lib/request-form";
import type { RequestJson } from "~/lib/request-json";
import { UPLOAD_ERROR_HEADING, uploadLimits } from "~/lib/upload-rules";
import { attachments, requests } from "~db/schema";
import { validateAffiliateCode } from "../affiliates.server";
import { getConfiguration } from "../configuration/configuration.server";
import { checkEmbedFormToken, embedSentToken } from "../embed/embed.server";
import { serializeToast } from "../http/flash.server";
import { pipeline } from "../pipeline/config.server";
import { promiseColumns } from "../pipeline/promises.server";
import { transaction } from "../platform/db.server";
import { diskLow } from "../platform/disk.server";
import { consumeAll, refundAll, visitorLimits } from "../platform/rate-limit.server";
import { type Failure, failure, fieldsFailure, type Ok } from "../platform/result.server";
import { claimSolution } from "../spam/altcha.server";
import { honeypotFilled } from "../spam/honeypot.server";
import { challengeOffered, issueChallenge } from "../spam/script-free.server";
import { spamVerdict } from "../spam/verdict.server";
import { initialTranscriptStatus } from "../transcription/jobs.server";
import { hardBodyLimit, parseSubmissionBody } from "../uploads/parse.server";
import { deleteStoredFiles } from "../uploads/store.server";
import { newVisitorSecret, rememberVisitorRequest } from "../visitors/visitor.server";
import { typedColumns } from "./contact-columns.server";
import { runNewRequestFlow } from "./new-request-flow.server";
import { sendHeldNoticeIfDue } from "./quarantine-jobs.server";
import { requestLinkPath } from "./request-link.server";
import { loadRequestJson } from "./serialize.server";

export const SUBMISSION_FAILED = "Es gab einen Fehler beim Senden. Bitte versuche es erneut.";
const INVALID_INPUT = "Bitte überprüfe deine Eingaben.";
const HONEYPOT_MESSAGE = "Deine Anfrage konnte nicht angenommen werden.";
/** The data volume is almost full (DISK_MIN_FREE_MB): the text is saved, files are refused (ADR 096). */
export const FILES_REFUSED =
  "Deine Anfrage ist gespeichert, aber deine Dateien und Sprachaufnahmen konnten wir gerade nicht annehmen, weil unser Speicher fast voll ist. Bitte schicke sie uns später noch einmal.";

/**
 * A refused submission (ADR 310): a `Failure` (400, 403, 413 or 429; `fieldErrors` per field,
 * `retryAfterSeconds` with a 429) that also carries Conform's reply — the messages and the typed
 * values the no-JS page fills in again — and the refused files' messages.
 */
export type SubmitFailure = Failure & {
  reply: SubmissionResult<string[]>;
  uploadErrors?: string[];
};

/**
 * A refused no-JS post of a page's form (landing page, /embed) as its action data: Conform's reply,
 * the refused files, and the message that belongs to no field, with the failure's status.
 */
export function refusedSubmission(result: SubmitFailure) {
  return data(
    {
      result: result.reply,
      uploadErrors: result.uploadErrors ?? [],
      error: result.uploadErrors?.length || result.fieldErrors ? undefined : result.error,
    },
    { status: result.status },
  );
}

export type SubmitResult =
  | Ok<{
      request: RequestJson;
      /** The history cookie; none for the framed form, which reads and sets no cookie. */
      setCookie: string | null;
      /** From the framed form (ADR 283): the "gesendet" token and the signed booking link. */
      embed?: { sentToken: string; bookingPath: string | null };
      /**
       * Held for want of a proof of work, from a page's own form: the script-free challenge's
       * token for the thank-you page (ADR 326). Never for POST /api/requests or a blocklist hit.
       */
      challenge?: string;
      /** Files refused (disk almost full): the message, and the toast cookie that shows it. */
      filesRefused?: string;
      toastCookie?: string;
    }>
  | SubmitFailure;

/** A refusal of the whole submission: the message is the form's. */
const refused = (f: Failure): SubmitFailure => ({
  ...f,
  reply: { status: "error", error: { "": [f.error] } },
});

/** A body refused for its size: the message belongs to the file field (and the error summary). */
const tooLarge = (error: string): SubmitFailure => ({
  ...failure(413, error),
  uploadErrors: [error],
  reply: { status: "error", error: { attachments: [error] } },
});

/**
 * The one submission of a visitor request, used by the landing page action and POST /api/requests.
 * Files are streamed to storage first; the request row and its attachment rows are then written in
 * one transaction. On any failure the stored files are removed again, so nothing is half-saved.
 */
export async function submitRequest(
  request: Request,
  clientIp: string,
  options: SubmitOptions = {},
): Promise<SubmitResult> {
  // Reserved before the work (parallel submissions cannot overtake the limit); given back for
  // every submission that is not accepted.
  // The client's counter (an IPv4 address or IPv6 /56, ADR 254) and its network's (ADR 322).
  const limits = visitorLimits("submission", clientIp);
  const blocked = await consumeAll(limits);
  if (!blocked.ok)
    return options.scriptFree ? refusedKeepingText(request, blocked) : refused(blocked);
  let result: SubmitResult | undefined;
  try {
    result = await acceptRequest(request, clientIp, options);
    return result;
  } finally {
    if (!result?.ok) await refundAll(limits);
  }
}

/** The fields the visitor typed: without the honeypot, the proof of work and the frame's token. */
const typedFields = (fields: Record<string, string>) =>
  Object.entries(fields).filter(
    ([name]) => name !== HONEYPOT_FIELD && name !== ALTCHA_FIELD && name !== EMBED_TOKEN_FIELD,
  );

/** The visitor's typed fields, checked by the form's schema. */
function parseTyped(fields: Record<string, string>) {
  const formData = new FormData();
  for (const [name, value] of typedFields(fields)) formData.set(name, value);
  return parseWithZod(formData, { schema: RequestFormSchema });
}

/**
 * A page's own post (no JS) refused before its work, by a limit: its text is still read (files
 * drained unread, as on a full disk) so the page fills in what the visitor typed again — a refusal
 * never throws a long description away. The API's posts are refused without reading.
 */
async function refusedKeepingText(request: Request, f: Failure): Promise<SubmitFailure> {
  try {
    const limits = uploadLimits(getConfiguration().uploadSettings);
    const parsed = await parseSubmissionBody(request, { ...limits, refuseFiles: f.error });
    const initialValue = Object.fromEntries(typedFields(parsed.fields));
    return { ...f, reply: { status: "error", initialValue, error: { "": [f.error] } } };
  } catch {
    return refused(f);
  }
}

/**
 * `embed`: the post of the framed form (/embed), which must carry a valid token. `scriptFree`: a
 * page's own form post (the landing page, /embed), whose thank-you page can ask the script-free
 * challenge (ADR 326); POST /api/requests never passes it.
 */
type SubmitOptions = { embed?: boolean; scriptFree?: boolean };

async function acceptRequest(
  request: Request,
  clientIp: string,
  options: SubmitOptions,
): Promise<SubmitResult> {
  const limits = uploadLimits(getConfiguration().uploadSettings);
  const declared = Number(request.headers.get("content-length") ?? "0");
  const totalTooLarge = `Gesamtgröße zu groß. Maximum: ${limits.maxTotalSizeMB} MB`;
  if (declared > hardBodyLimit(limits)) return tooLarge(totalTooLarge);

  // A full disk must not lose the lead: below the threshold no file is written, the text still is.
  const refuseFiles = diskLow() ? FILES_REFUSED : undefined;
  let parsed: Awaited<ReturnType<typeof parseSubmissionBody>>;
  try {
    parsed = await parseSubmissionBody(request, { ...limits, refuseFiles });
  } catch (cut) {
    // The server's guard cut a body beyond the absolute cap (server/guards.ts).
    if ((cut as { code?: string } | null)?.code === "BODY_TOO_LARGE")
      return tooLarge(totalTooLarge);
    return refused(
      failure(400, "Die Formulardaten konnten nicht gelesen werden. Bitte versuche es erneut."),
    );
  }
  const filesRefused = Boolean(refuseFiles) && parsed.uploadErrors.includes(FILES_REFUSED);
  if (filesRefused) parsed.uploadErrors = [];
  const storedKeys = [
    ...parsed.attachments.map((a) => a.key),
    ...(parsed.audio ? [parsed.audio.key] : []),
  ];

  if (honeypotFilled(parsed.fields)) {
    await deleteStoredFiles(storedKeys);
    return refused(failure(400, HONEYPOT_MESSAGE));
  }
  // The framed form (ADR 283) proves itself by its signed token, not by a cookie: a post that
  // carries one (or must: the /embed page's) is refused with a forged or expired one.
  const embedded = options.embed || EMBED_TOKEN_FIELD in parsed.fields;
  if (embedded) {
    const check = checkEmbedFormToken(parsed.fields[EMBED_TOKEN_FIELD]);
    if (!check.ok) {
      await deleteStoredFiles(storedKeys);
      return refused(check);
    }
  }

  const submission = parseTyped(parsed.fields);

  if (submission.status !== "success" || parsed.uploadErrors.length) {
    await deleteStoredFiles(storedKeys);
    const reply = submission.reply(
      parsed.uploadErrors.length ? { fieldErrors: { attachments: parsed.uploadErrors } } : {},
    );
    const fieldErrors = Object.fromEntries(
      Object.entries(reply.error ?? {}).filter(
        (entry): entry is [string, string[]] => !!entry[1]?.length && entry[0] !== "",
      ),
    );
    const error = parsed.uploadErrors.length
      ? `${UPLOAD_ERROR_HEADING} ${parsed.uploadErrors.join(" ")}`
      : (Object.values(fieldErrors)[0]?.[0] ?? INVALID_INPUT);
    return {
      ...fieldsFailure(parsed.tooLarge ? 413 : 400, fieldErrors, error),
      uploadErrors: parsed.uploadErrors.length ? parsed.uploadErrors : undefined,
      reply,
    };
  }

  const value = submission.value;
  const affiliate = validateAffiliateCode(value.affiliateCode);
  const attribution = attributionOf(value);
  const { secret, hash } = newVisitorSecret();
  let id: number;
  let quarantined = false;
  let blocked = false;
  try {
    // Spam (ADR 250): without a valid proof of work, or on the blocklist, the request is stored
    // and answered like any other, but quarantined: none of the new-request side effects run.
    const verdict = await spamVerdict(parsed.fields[ALTCHA_FIELD], value.email, clientIp);
    blocked = verdict.blocked;
    // The entry stage and the promises' due times (ADRs 345, 346); a held request gets its due
    // times when it is released.
    const received = new Date();
    const promises = promiseColumns(received);
    const stage = entryStage(pipeline()).id;
    id = transaction((tx) => {
      // Only a stored submission uses its solution up; a second use is a replay.
      const fresh = verdict.solution ? claimSolution(tx, verdict.solution) : true;
      quarantined = verdict.quarantine || !fresh;
      const row = tx
        .insert(requests)
        .values({
          ...typedColumns(value),
          affiliateCode: affiliate.valid ? (affiliate.code ?? null) : null,
          audioKey: parsed.audio?.key ?? null,
          audioType: parsed.audio?.mimeType ?? null,
          voiceTranscriptStatus: initialTranscriptStatus(Boolean(parsed.audio)),
          visitorSecretHash: hash,
          attributionSource: attribution.source,
          attributionMedium: attribution.medium,
          attributionCampaign: attribution.campaign,
          attributionReferrer: attribution.referrer,
          attributionLandingPath: attribution.landingPath,
          emailKey: emailKey(value.email),
          phoneKey: phoneKey(value.phone),
          quarantinedAt: quarantined ? received : null,
          createdAt: received,
          updatedAt: received,
          stage,
          ...(quarantined ? {} : promises),
        })
        .returning({ id: requests.id })
        .get();
      if (parsed.attachments.length) {
        tx.insert(attachments)
          .values(
            parsed.attachments.map((a) => ({
              requestId: row.id,
              filename: a.key,
              originalName: a.originalName,
              mimeType: a.mimeType,
              size: a.size,
            })),
          )
          .run();
      }
      return row.id;
    });
  } catch (error) {
    await deleteStoredFiles(storedKeys);
    throw error;
  }

  const created = loadRequestJson(id) as RequestJson;
  // Without a proof of work, through a page's form: the thank-you page asks one question (ADR 326).
  const challenge =
    quarantined && !blocked && options.scriptFree && challengeOffered()
      ? issueChallenge(id)
      : undefined;
  if (!quarantined) await runNewRequestFlow(created);
  // Announced now; one the visitor may still answer, by the next tick if it is still held.
  else noticeHeld(Boolean(challenge));
  return {
    ok: true,
    ...(challenge ? { challenge } : {}),
    request: created,
    setCookie: embedded ? null : await rememberVisitorRequest(request, id, secret),
    ...(embedded
      ? { embed: { sentToken: embedSentToken(id), bookingPath: requestLinkPath(id, "termin") } }
      : {}),
    ...(filesRefused
      ? {
          filesRefused: FILES_REFUSED,
          toastCookie: await serializeToast({ type: "error", message: FILES_REFUSED }),
        }
      : {}),
  };
}

/** A held request: the admins hear of it (at most every few hours, ADR 327); never fails the lead. */
function noticeHeld(answerable: boolean) {
  try {
    sendHeldNoticeIfDue({ held: true, defer: answerable });
  } catch (error) {
    console.warn(
      "Hinweis auf angehaltene Anfrage fehlgeschlagen:",
      error instanceof Error ? error.message : error,
    );
  }
}
