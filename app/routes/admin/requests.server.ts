import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect } from "react-router";
import { z } from "zod";
import { formatRequestId } from "~/lib/format";
import { MessageSchema } from "~/lib/request-message";
import { TrialSchema } from "~/lib/trial";
import { type AdminUser, backTo } from "~/server/accounts/auth.server";
import { runAutomatedPreparation, runCodingPrompt } from "~/server/ai/request-ai.server";
import { requireConfirmation } from "~/server/http/confirm.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { firstError, parseId, readForm } from "~/server/http/http.server";
import { movedMessage, moveToStage, StageMoveSchema } from "~/server/pipeline/stages.server";
import { deliverTrial, trialMessage } from "~/server/pipeline/trial.server";
import { failure, failureToast } from "~/server/platform/result.server";
import {
  AssignSchema,
  assignRequest,
  deleteAttachment,
  deleteRequest,
  NOT_FOUND,
  RequestUpdateSchema,
  setArchived,
  updateRequest,
} from "~/server/requests/manage.server";
import { sendMessage } from "~/server/requests/messages.server";
import { releaseMessage, releaseRequest } from "~/server/requests/quarantine.server";
import { loadRequestJson } from "~/server/requests/serialize.server";
import { retranscribe } from "~/server/transcription/jobs.server";
import { listDensityCookie } from "~/server/visitors/preferences.server";
import { handleCardForm, isCardIntent } from "./appointments.server";
import { handleWorkIntent, isWorkIntent } from "./request-work.server";

/**
 * Back to the list after a release or deletion in the "Prüfen" view, with `focus=heading`: the
 * list's heading (its new count) takes the focus, with and without JS.
 */
function quarantineResultPath(back: string): string {
  const url = new URL(back, "http://x");
  if (url.searchParams.get("tab") !== "quarantine") return back;
  url.searchParams.delete("requestId");
  url.searchParams.set("focus", "heading");
  return `${url.pathname}${url.search}`;
}

export const PREPARATION_CONFLICT =
  "Die Vorbereitung wurde inzwischen von jemand anderem geändert. Ihr Entwurf ist unten erhalten – prüfen Sie ihn und speichern Sie erneut, um die andere Fassung zu überschreiben.";

/** A positive integer id of a form field, else the message (the form's fields are strings). */
const formId = (message: string) =>
  z.preprocess(
    (v) => parseId(typeof v === "string" ? v : undefined) ?? undefined,
    z.number({ error: message }),
  );

const id = formId(NOT_FOUND.error);
const fields = RequestUpdateSchema.shape;

/**
 * The page's intents, one object each, built from the fields of the rules' schemas
 * (`RequestUpdateSchema`, `AssignSchema`): the page and /api cannot disagree about a value.
 */
export const RequestPageSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("density"), density: z.string().optional() }),
  z.object({ intent: z.literal("status"), id, status: fields.status.unwrap() }),
  z.object({ intent: z.literal("archive"), id }),
  z.object({ intent: z.literal("restore"), id }),
  z.object({
    intent: z.literal("assign"),
    id,
    op: AssignSchema.shape.action.default("add"),
    adminId: AssignSchema.shape.admin_id,
  }),
  z.object({
    intent: z.literal("preparation"),
    id,
    prep: fields.preparationData.unwrap().default({}),
    updatedAt: z.preprocess((v) => v || undefined, fields.updatedAt),
  }),
  z.object({ intent: z.literal("auto-prepare"), id }),
  z.object({ intent: z.literal("prompt"), id }),
  z.object({
    intent: z.literal("delete-attachment"),
    id,
    attachmentId: formId("Anhang nicht gefunden."),
  }),
  z.object({ intent: z.literal("release"), id }),
  z.object({ intent: z.literal("delete"), id }),
  // ADRs 272, 273: "Erneut transkribieren" and "Nachricht an den Kunden" (the API's MessageSchema).
  z.object({ intent: z.literal("retranscribe"), id }),
  z.object({
    intent: z.literal("message"),
    id,
    subject: MessageSchema.shape.subject,
    body: MessageSchema.shape.body,
  }),
  // The pipeline (ADRs 345, 348): a stage from the board, a row or the full-screen view, and
  // "Testversion liefern" (the API's StageMoveSchema and TrialSchema).
  z.object({
    intent: z.literal("stage"),
    id,
    stage: StageMoveSchema.shape.stage,
    reason: StageMoveSchema.shape.reason,
  }),
  z.object({
    intent: z.literal("trial"),
    id,
    url: TrialSchema.shape.url,
    message: TrialSchema.shape.message,
  }),
]);

/**
 * Form posts of the requests page (with and without JS): the same rules as the /api calls,
 * answered with a redirect back to the page plus a toast, or data for inline results.
 */
export async function handleRequestAction(request: Request, admin: AdminUser) {
  const form = await readForm(request);
  const back = backTo(request);
  // Notes and follow-ups (ADRs 350, 351): their own module, shared with the tasks page.
  const workIntent = form.get("intent");
  if (isWorkIntent(workIntent)) return handleWorkIntent(workIntent, form, admin, back);
  // The appointment cards of the full-screen view: the forms of Termine, answered here.
  if (isCardIntent(form.get("intent"))) {
    const appointmentId = parseId(String(form.get("id") ?? ""));
    if (!appointmentId)
      return redirectWithToast(back, { type: "error", message: "Termin nicht gefunden." });
    return handleCardForm(admin.id, appointmentId, form, back);
  }
  const ok = (message: string) => redirectWithToast(back, { type: "success", message });
  const fail = (message: string) => redirectWithToast(back, { type: "error", message });
  // Strings as sent: an emptied text area is "" (a cleared text), not a missing field.
  const submission = parseWithZod(form, { schema: RequestPageSchema, disableAutoCoercion: true });
  if (submission.status !== "success") return refused(submission.payload, submission.error, back);
  const input = submission.value;
  // The list's density toggle: kept in a cookie, back to the same list (with and without JS).
  if (input.intent === "density") {
    const density = input.density === "compact" ? "compact" : "comfortable";
    return redirect(back, {
      headers: { "Set-Cookie": await listDensityCookie.serialize(density) },
    });
  }
  const { intent, id } = input;

  switch (intent) {
    case "status": {
      const result = updateRequest(id, { status: input.status }, admin);
      return result.ok ? ok("Status gespeichert.") : failureToast(back, result);
    }
    case "archive":
    case "restore": {
      const archive = intent === "archive";
      const step = requireConfirmation(form, {
        title: archive ? "Anfrage archivieren" : "Anfrage wiederherstellen",
        message: `Möchten Sie die Anfrage #${formatRequestId(id)} wirklich ${archive ? "archivieren" : "wiederherstellen"}?`,
      });
      if (step) return step;
      const result = setArchived(id, archive, admin);
      if (!result.ok) return failureToast(back, result);
      return ok(archive ? "Anfrage archiviert." : "Anfrage wiederhergestellt.");
    }
    case "assign": {
      const result = assignRequest(id, input.op, input.adminId, admin);
      return result.ok ? ok(result.message) : failureToast(back, result);
    }
    case "preparation": {
      const preparationData = input.prep;
      const result = updateRequest(id, { preparationData, updatedAt: input.updatedAt }, admin);
      if (result.ok) return ok("Vorbereitung gespeichert.");
      if ("updatedAt" in result) {
        // Someone else changed the texts since the form was loaded: the form comes back with the
        // admin's draft (not a redirect that drops it) and the stored time, so saving again wins.
        return data(
          { intent, id, error: PREPARATION_CONFLICT, updatedAt: result.updatedAt, preparationData },
          { status: 409 },
        );
      }
      return fail(result.status === 404 ? result.error : "Fehler beim Speichern!");
    }
    case "auto-prepare": {
      const result = await runAutomatedPreparation(id, admin);
      if (!result.ok) return fail(result.error);
      return ok(
        result.filled.length
          ? `Automatisch vorbereitet: ${result.filled.length} ${result.filled.length === 1 ? "Feld" : "Felder"} ausgefüllt.`
          : "Alle Felder waren schon ausgefüllt – nichts überschrieben.",
      );
    }
    case "prompt": {
      const result = await runCodingPrompt(id);
      if (!result.ok) return data({ intent, id, error: result.error }, { status: result.status });
      if (!result.prompt.trim())
        return data({ intent, id, error: "Kein Prompt erhalten!" }, { status: 502 });
      return data({ intent, id, prompt: result.prompt });
    }
    case "delete-attachment": {
      const { attachmentId } = input;
      const file = loadRequestJson(id)?.attachments.find((a) => a.id === attachmentId);
      const step = requireConfirmation(form, {
        title: "Anhang löschen",
        message: file
          ? `Möchten Sie den Anhang „${file.originalName}“ wirklich löschen?`
          : "Möchten Sie diesen Anhang wirklich löschen?",
      });
      if (step) return step;
      const result = await deleteAttachment(id, attachmentId);
      return result.ok ? ok("Anhang gelöscht.") : fail("Fehler beim Löschen!");
    }
    case "retranscribe": {
      const result = retranscribe(id);
      return result.ok
        ? ok("Die Sprachnachricht wird erneut transkribiert.")
        : failureToast(back, result);
    }
    case "message": {
      const values = { subject: input.subject, body: input.body };
      const result = await sendMessage(id, admin, values);
      // Refused (no SMTP, a limit, in quarantine): the draft comes back with the reason.
      if (!result.ok)
        return data({ intent, id, error: result.error, values }, { status: result.status });
      return ok("Nachricht an den Kunden gesendet.");
    }
    case "stage": {
      const result = moveToStage(id, { stage: input.stage, reason: input.reason }, admin);
      if (result.ok) return ok(movedMessage(result, id));
      // A stage that asks for a reason: the form comes back with the reasons to choose from.
      if (result.field === "reason")
        return data(
          { intent, id, stage: input.stage, error: result.error, needsReason: true },
          { status: 400 },
        );
      return failureToast(back, result);
    }
    case "trial": {
      const values = { url: input.url, message: input.message ?? "" };
      const result = await deliverTrial(id, admin, { url: input.url, message: input.message });
      // Refused (no SMTP, archived, held, a limit): the draft comes back with the reason.
      if (!result.ok)
        return data({ intent, id, error: result.error, values }, { status: result.status });
      return ok(trialMessage(result.kept));
    }
    case "release": {
      const result = await releaseRequest(id, admin);
      if (!result.ok) return failureToast(back, result);
      return redirectWithToast(quarantineResultPath(back), {
        type: "success",
        message: releaseMessage(result),
      });
    }
    case "delete": {
      const step = requireConfirmation(form, {
        title: "Anfrage löschen",
        message: `Möchten Sie die Anfrage #${formatRequestId(id)} wirklich endgültig löschen? Alle Daten, Dateien, Termine und E-Mails dazu werden entfernt.`,
      });
      if (step) return step;
      const result = await deleteRequest(id, admin);
      const list = new URL(quarantineResultPath(back), "http://x");
      list.searchParams.delete("requestId");
      return redirectWithToast(`${list.pathname}${list.search}`, {
        type: result.ok ? "success" : "error",
        message: result.ok ? "Anfrage gelöscht." : "Fehler beim Löschen!",
      });
    }
  }
}

const UNKNOWN_INTENT = data({ error: "Unbekannte Aktion." }, { status: 400 });

/**
 * An input the rules refuse: a preparation draft comes back with the message (nothing typed is
 * lost, like a conflict), everything else goes back to the page with the message as a toast.
 */
function refused(
  payload: Record<string, unknown>,
  errors: Record<string, string[] | null> | null | undefined,
  back: string,
) {
  const intent = payload.intent;
  if (!RequestPageSchema.options.some((o) => o.shape.intent.value === intent))
    return UNKNOWN_INTENT;
  const error = firstError(errors ?? {});
  const requestId = parseId(typeof payload.id === "string" ? payload.id : undefined);
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  if (intent === "message" && requestId && !errors?.id) {
    // The message's draft comes back with its field errors (nothing typed is lost).
    return data(
      {
        intent,
        id: requestId,
        error,
        fieldErrors: errors ?? {},
        values: { subject: text(payload.subject), body: text(payload.body) },
      },
      { status: 400 },
    );
  }
  if (intent === "trial" && requestId && !errors?.id) {
    // The trial's link and text come back with the message at the field.
    return data(
      {
        intent,
        id: requestId,
        error,
        fieldErrors: errors ?? {},
        values: { url: text(payload.url), message: text(payload.message) },
      },
      { status: 400 },
    );
  }
  if (intent === "preparation" && requestId && !errors?.id && !errors?.updatedAt) {
    const draft = payload.prep && typeof payload.prep === "object" ? payload.prep : {};
    return data(
      { intent, id: requestId, error, updatedAt: payload.updatedAt, preparationData: draft },
      { status: 400 },
    );
  }
  return failureToast(back, failure(400, error));
}
