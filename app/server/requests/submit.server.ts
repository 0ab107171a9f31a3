import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { attributionOf } from "~/lib/attribution";
import { clientKey } from "~/lib/client-key";
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
import { submissionLimiter, tooManyMessage } from "../platform/rate-limit.server";
import { claimSolution } from "../spam/altcha.server";
import { honeypotFilled } from "../spam/honeypot.server";
import { spamVerdict } from "../spam/verdict.server";
import { initialTranscriptStatus } from "../transcription/jobs.server";
import { hardBodyLimit, parseSubmissionBody } from "../uploads/parse.server";
import { deleteStoredFiles } from "../uploads/store.server";
import { newVisitorSecret, rememberVisitorRequest } from "../visitors/visitor.server";
import { runNewRequestFlow } from "./new-request-flow.server";
import { requestLinkPath } from "./request-link.server";
import { loadRequestJson } from "./serialize.server";

export const SUBMISSION_FAILED = "Es gab einen Fehler beim Senden. Bitte versuche es erneut.";
const INVALID_INPUT = "Bitte überprüfe deine Eingaben.";
const HONEYPOT_MESSAGE = "Deine Anfrage konnte nicht angenommen werden.";
/** The data volume is almost full (DISK_MIN_FREE_MB): the text is saved, files are refused (ADR 096). */
export const FILES_REFUSED =
  "Deine Anfrage ist gespeichert, aber deine Dateien und Sprachaufnahmen konnten wir gerade nicht annehmen, weil unser Speicher fast voll ist. Bitte schicke sie uns später noch einmal.";

export type SubmitResult =
  | {
      ok: true;
      request: RequestJson;
      /** The history cookie; none for the framed form, which reads and sets no cookie. */
      setCookie: string | null;
      /** From the framed form (issue 29): the "gesendet" token and the signed booking link. */
      embed?: { sentToken: string; bookingPath: string | null };
      /** Files refused (disk almost full): the message, and the toast cookie that shows it. */
      filesRefused?: string;
      toastCookie?: string;
    }
  | {
      ok: false;
      status: 400 | 403 | 413 | 429;
      error: string;
      fieldErrors?: Record<string, string[]>;
      uploadErrors?: string[];
      /** Conform's reply: messages per field and the typed values to re-fill. */
      reply: SubmissionResult<string[]>;
      retryAfterSeconds?: number;
    };

const emptyReply = (error: string): SubmissionResult<string[]> => ({
  status: "error",
  error: { "": [error] },
});

/** A body refused for its size: the message belongs to the file field (and the error summary). */
const filesReply = (error: string): SubmissionResult<string[]> => ({
  status: "error",
  error: { attachments: [error] },
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
  const limiter = submissionLimiter();
  // One client = one IPv4 address or IPv6 /56 (ADR 254).
  const client = clientKey(clientIp);
  const blocked = await limiter.consume(client);
  if (!blocked.ok) {
    const error = tooManyMessage(blocked.retryAfterSeconds);
    return {
      ok: false,
      status: 429,
      error,
      reply: emptyReply(error),
      retryAfterSeconds: blocked.retryAfterSeconds,
    };
  }
  let result: SubmitResult | undefined;
  try {
    result = await acceptRequest(request, clientIp, options);
    return result;
  } finally {
    if (!result?.ok) await limiter.refund(client);
  }
}

/** `embed`: the post of the framed form (/embed), which must carry a valid token. */
type SubmitOptions = { embed?: boolean };

async function acceptRequest(
  request: Request,
  clientIp: string,
  options: SubmitOptions,
): Promise<SubmitResult> {
  const limits = uploadLimits(getConfiguration().uploadSettings);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > hardBodyLimit(limits)) {
    const error = `Gesamtgröße zu groß. Maximum: ${limits.maxTotalSizeMB} MB`;
    return { ok: false, status: 413, error, uploadErrors: [error], reply: filesReply(error) };
  }

  // A full disk must not lose the lead: below the threshold no file is written, the text still is.
  const refuseFiles = diskLow() ? FILES_REFUSED : undefined;
  let parsed: Awaited<ReturnType<typeof parseSubmissionBody>>;
  try {
    parsed = await parseSubmissionBody(request, { ...limits, refuseFiles });
  } catch (failure) {
    // The server's guard cut a body beyond the absolute cap (server/guards.ts).
    if ((failure as { code?: string } | null)?.code === "BODY_TOO_LARGE") {
      const error = `Gesamtgröße zu groß. Maximum: ${limits.maxTotalSizeMB} MB`;
      return { ok: false, status: 413, error, uploadErrors: [error], reply: filesReply(error) };
    }
    const error = "Die Formulardaten konnten nicht gelesen werden. Bitte versuche es erneut.";
    return { ok: false, status: 400, error, reply: emptyReply(error) };
  }
  const filesRefused = Boolean(refuseFiles) && parsed.uploadErrors.includes(FILES_REFUSED);
  if (filesRefused) parsed.uploadErrors = [];
  const storedKeys = [
    ...parsed.attachments.map((a) => a.key),
    ...(parsed.audio ? [parsed.audio.key] : []),
  ];

  if (honeypotFilled(parsed.fields)) {
    await deleteStoredFiles(storedKeys);
    return { ok: false, status: 400, error: HONEYPOT_MESSAGE, reply: emptyReply(HONEYPOT_MESSAGE) };
  }
  // The framed form (issue 29) proves itself by its signed token, not by a cookie: a post that
  // carries one (or must: the /embed page's) is refused with a forged or expired one.
  const embedded = options.embed || EMBED_TOKEN_FIELD in parsed.fields;
  if (embedded) {
    const check = checkEmbedFormToken(parsed.fields[EMBED_TOKEN_FIELD]);
    if (!check.ok) {
      await deleteStoredFiles(storedKeys);
      return {
        ok: false,
        status: check.status,
        error: check.message,
        reply: emptyReply(check.message),
      };
    }
  }

  const formData = new FormData();
  for (const [name, value] of Object.entries(parsed.fields)) {
    if (name !== HONEYPOT_FIELD && name !== ALTCHA_FIELD && name !== EMBED_TOKEN_FIELD)
      formData.set(name, value);
  }
  const submission = parseWithZod(formData, { schema: RequestFormSchema });

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
      ok: false,
      status: parsed.tooLarge ? 413 : 400,
      error,
      fieldErrors,
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
  try {
    // Spam (ADR 250): without a valid proof of work, or on the blocklist, the request is stored
    // and answered like any other, but quarantined: none of the new-request side effects run.
    const verdict = await spamVerdict(parsed.fields[ALTCHA_FIELD], value.email, clientIp);
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
          name: value.name,
          email: value.email,
          phone: value.phone,
          companyDescription: value.companyDescription,
          description: value.description ?? "",
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
  if (!quarantined) await runNewRequestFlow(created);
  return {
    ok: true,
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
