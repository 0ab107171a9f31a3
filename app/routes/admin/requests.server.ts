import { data, redirect } from "react-router";
import { z } from "zod";
import { fieldErrorsOf } from "~/lib/field-errors";
import { formatRequestId } from "~/lib/format";
import { MessageSchema } from "~/lib/request-message";
import { REQUEST_STATUSES } from "~/lib/request-status";
import { runAutomatedPreparation, runCodingPrompt } from "~/server/ai/request-ai.server";
import { type AdminUser, backTo } from "~/server/auth.server";
import { requireConfirmation } from "~/server/confirm.server";
import { redirectWithToast } from "~/server/flash.server";
import { firstError, parseId, readForm } from "~/server/http.server";
import { listDensityCookie } from "~/server/preferences.server";
import {
  assignRequest,
  deleteAttachment,
  deleteRequest,
  setArchived,
  updateRequest,
} from "~/server/requests/manage.server";
import { sendMessage } from "~/server/requests/messages.server";
import { releaseMessage, releaseRequest } from "~/server/requests/quarantine.server";
import { loadRequestJson } from "~/server/requests/serialize.server";
import { retranscribe } from "~/server/transcription/jobs.server";

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

/**
 * Form posts of the requests page (with and without JS): the same rules as the /api calls,
 * answered with a redirect back to the page plus a toast, or data for inline results.
 */
export async function handleRequestAction(request: Request, admin: AdminUser) {
  const form = await readForm(request);
  const intent = String(form.get("intent") ?? "");
  const id = parseId(String(form.get("id") ?? ""));
  const back = backTo(request);
  const ok = (message: string) => redirectWithToast(back, { type: "success", message });
  const fail = (message: string) => redirectWithToast(back, { type: "error", message });
  // The list's density toggle: kept in a cookie, back to the same list (with and without JS).
  if (intent === "density") {
    const density = form.get("density") === "compact" ? "compact" : "comfortable";
    return redirect(back, {
      headers: { "Set-Cookie": await listDensityCookie.serialize(density) },
    });
  }
  if (!id) return fail("Anfrage nicht gefunden.");

  switch (intent) {
    case "status": {
      const status = z.enum(REQUEST_STATUSES).safeParse(form.get("status"));
      if (!status.success) return fail("Unbekannter Status.");
      const result = updateRequest(id, { status: status.data }, admin);
      return result.ok ? ok("Status gespeichert.") : fail(result.error);
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
      if (!result.ok) return fail(result.error);
      return ok(archive ? "Anfrage archiviert." : "Anfrage wiederhergestellt.");
    }
    case "assign": {
      const op = form.get("op") === "remove" ? "remove" : "add";
      const adminId = parseId(String(form.get("adminId") ?? ""));
      if (!adminId) return fail("Fehler bei der Zuweisung");
      const result = assignRequest(id, op, adminId, admin);
      return result.actionPerformed ? ok(result.message) : fail(result.message);
    }
    case "preparation": {
      const preparationData: Record<string, string> = {};
      for (const [name, value] of form) {
        if (name.startsWith("prep.") && typeof value === "string")
          preparationData[name.slice(5)] = value.slice(0, 20_000);
      }
      const updatedAt = String(form.get("updatedAt") ?? "");
      const result = updateRequest(
        id,
        { preparationData, updatedAt: updatedAt || undefined },
        admin,
      );
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
      const result = await runAutomatedPreparation(id);
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
      const attachmentId = parseId(String(form.get("attachmentId") ?? ""));
      if (!attachmentId) return fail("Anhang nicht gefunden.");
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
      return result.ok ? ok("Die Sprachnachricht wird erneut transkribiert.") : fail(result.error);
    }
    case "message": {
      const values = {
        subject: String(form.get("subject") ?? ""),
        body: String(form.get("body") ?? ""),
      };
      const parsed = MessageSchema.safeParse(values);
      if (!parsed.success) {
        const fieldErrors = fieldErrorsOf(parsed.error);
        return data(
          { intent, id, error: firstError(fieldErrors), fieldErrors, values },
          { status: 400 },
        );
      }
      const result = await sendMessage(id, admin, parsed.data);
      // Refused (no SMTP, a limit, in quarantine): the draft comes back with the reason.
      if (!result.ok)
        return data({ intent, id, error: result.error, values }, { status: result.status });
      return ok("Nachricht an den Kunden gesendet.");
    }
    case "release": {
      const result = await releaseRequest(id, admin);
      if (!result.ok) return fail(result.error);
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
    default:
      return data({ error: "Unbekannte Aktion." }, { status: 400 });
  }
}
