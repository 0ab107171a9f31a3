import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import {
  AffiliateCreateSchema,
  AffiliateToggleSchema,
  DELETE_AFFILIATE_MESSAGE,
} from "~/lib/affiliate";
import { formFlag } from "~/lib/form-flag";
import {
  createAffiliateCode,
  deleteAffiliateCode,
  listAffiliateCodes,
  setAffiliateActive,
} from "~/server/affiliates.server";
import { requireConfirmation } from "~/server/http/confirm.server";
import { redirectWithToast } from "~/server/http/flash.server";
import { parseId } from "~/server/http/http.server";
import { env } from "~/server/platform/env.server";
import { failureToast, invalid } from "~/server/platform/result.server";
import type { AuditActor } from "~/server/privacy/audit.server";

/** What the affiliate panel shows (page and legacy panel): the codes and the origin of their links. */
export function affiliatePanelData() {
  return { codes: listAffiliateCodes(), origin: env().APP_URL };
}

/** Form posts of the affiliate panel (page and legacy panel share it). */
export async function handleAffiliateAction(form: FormData, back: string, actor: AuditActor) {
  const intent = String(form.get("intent") ?? "");
  if (intent === "create") {
    const submission = parseWithZod(form, { schema: AffiliateCreateSchema });
    if (submission.status !== "success") {
      const first = Object.values(submission.error ?? {}).flat()[0] ?? undefined;
      return data({ affiliateForm: { result: submission.reply(), error: first } }, { status: 400 });
    }
    try {
      const created = createAffiliateCode(submission.value, actor);
      return redirectWithToast(back, {
        type: "success",
        message: `Affiliate-Code erfolgreich erstellt! ${created.code}`,
      });
    } catch {
      return redirectWithToast(back, {
        type: "error",
        message: "Fehler beim Erstellen des Affiliate-Codes!",
      });
    }
  }
  const id = parseId(String(form.get("id") ?? ""));
  if (!id)
    return redirectWithToast(back, { type: "error", message: "Affiliate-Code nicht gefunden." });
  if (intent === "toggle") {
    const parsed = AffiliateToggleSchema.safeParse({ isActive: formFlag(form.get("isActive")) });
    if (!parsed.success) return failureToast(back, invalid(parsed.error));
    const updated = setAffiliateActive(id, parsed.data.isActive, actor);
    return updated
      ? redirectWithToast(back, {
          type: "success",
          message: updated.isActive
            ? `${updated.code} ist aktiv.`
            : `${updated.code} ist deaktiviert.`,
        })
      : redirectWithToast(back, { type: "error", message: "Fehler beim Aktualisieren!" });
  }
  if (intent === "delete") {
    const step = requireConfirmation(form, {
      title: "Affiliate-Code löschen",
      message: DELETE_AFFILIATE_MESSAGE,
    });
    if (step) return step;
    return deleteAffiliateCode(id, actor)
      ? redirectWithToast(back, { type: "success", message: "Affiliate-Code gelöscht!" })
      : redirectWithToast(back, { type: "error", message: "Fehler beim Löschen!" });
  }
  return data({ error: "Unbekannte Aktion." }, { status: 400 });
}
