import { withdrawalQuestion } from "~/lib/withdrawal";
import { requireConfirmation } from "../http/confirm.server";
import { redirectWithToast } from "../http/flash.server";
import { parseId, readForm } from "../http/http.server";
import { requestTarget } from "../requests/manage.server";
import { refuseFilledHoneypot } from "../spam/honeypot.server";
import { forgetVisitorRequest, visitorOwnsRequest } from "../visitors/visitor.server";
import { audit } from "./audit.server";
import { eraseRequest } from "./erasure.server";

const BACK = "/#history";

/**
 * The visitor withdraws one of their own requests (history cookie proves ownership): asks first
 * (modal with JS, confirmation step without), then erases it like an admin deletion.
 */
export async function withdrawVisitorRequest(request: Request) {
  const form = await readForm(request);
  refuseFilledHoneypot(form);
  const id = parseId(String(form.get("id") ?? ""));
  if (!id || !(await visitorOwnsRequest(request, id))) {
    return redirectWithToast(BACK, {
      type: "error",
      message: "Diese Anfrage wurde nicht gefunden oder bereits zurückgezogen.",
    });
  }
  const step = requireConfirmation(form, {
    title: "Anfrage zurückziehen",
    message: withdrawalQuestion(id),
  });
  if (step) return step;
  const result = await eraseRequest(id);
  if (result.ok) audit("Besucher", "withdraw", requestTarget(id), { dateien: result.files });
  if (!result.ok) {
    return redirectWithToast(BACK, { type: "error", message: "Fehler beim Löschen!" });
  }
  return redirectWithToast(
    "/",
    {
      type: "success",
      message: "Deine Anfrage wurde zurückgezogen und mit allen Dateien gelöscht.",
    },
    { status: 303, headers: { "Set-Cookie": await forgetVisitorRequest(request, id) } },
  );
}
