import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, useLocation, useNavigation } from "react-router";
import { CopyButton } from "~/components/admin/requests/copy-button";
import { Button } from "~/components/ui/button";
import { Card } from "~/components/ui/card";
import { ConfirmAction, ConfirmationStep } from "~/components/ui/confirm-action";
import { Alert } from "~/components/ui/field";
import { Field, useConformForm } from "~/components/ui/form";
import { PostButton } from "~/components/ui/post-button";
import { TableHead } from "~/components/ui/table";
import type { AffiliateCodeJson } from "~/lib/affiliate";
import { AffiliateCreateSchema, DELETE_AFFILIATE_MESSAGE } from "~/lib/affiliate";
import { formatDate } from "~/lib/format";

export type AffiliateFormState = {
  result?: SubmissionResult<string[]>;
  /** The first problem, also shown above the table (without JS too). */
  error?: string;
};

/** The create form; remounted (keyed) after each new code so it is empty again. */
function AffiliateCreateForm({
  form: state,
  action,
}: {
  form?: AffiliateFormState;
  action: string;
}) {
  const navigation = useNavigation();
  const [form, fields] = useConformForm(AffiliateCreateSchema, state?.result, { id: "affiliate" });
  const creating =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "create";
  return (
    <Form
      method="post"
      action={action}
      {...getFormProps(form)}
      className="grid gap-4 sm:grid-cols-[1fr_1fr_10rem_auto] sm:items-end"
    >
      <input type="hidden" name="intent" value="create" />
      <Field meta={fields.name} label="Partnername" required />
      <Field meta={fields.email} label="E-Mail" type="email" required />
      <Field
        meta={fields.discountValue}
        label="Rabatt (%)"
        type="number"
        min={1}
        max={100}
        required
      />
      <Button type="submit" disabled={creating}>
        {creating ? "Erstellt …" : "Code erstellen"}
      </Button>
    </Form>
  );
}

/**
 * Create form + table of affiliate codes (used by /admin/affiliate-codes and /admin/legacy), with
 * the no-JS confirmation step of a deletion; the forms post to the page they are on.
 */
export function AffiliatePanel({
  codes,
  origin,
  actionData,
}: {
  codes: AffiliateCodeJson[];
  /** APP_URL: the "Link kopieren" button copies origin + /?code=CODE. */
  origin: string;
  /** The page action's answer: a refused create form (`affiliateForm`) or a confirmation step. */
  actionData: unknown;
}) {
  const action = useLocation().pathname;
  const form = (actionData as { affiliateForm?: AffiliateFormState } | undefined)?.affiliateForm;
  // A new code (a new highest id) remounts the form, so it is empty again with JS too.
  const newestId = codes.reduce((max, c) => Math.max(max, c.id), 0);
  return (
    <>
      <ConfirmationStep data={actionData} />
      <div className="space-y-6">
        <Card className="p-5">
          <h2 className="mb-4 text-lg font-semibold">Neuen Affiliate-Code erstellen</h2>
          <AffiliateCreateForm key={newestId} form={form} action={action} />
          {form?.error ? (
            <div className="mt-3">
              <Alert>{form.error}</Alert>
            </div>
          ) : null}
        </Card>

        {/* Below 640 px each code is a card (rows and cells stacked, each value with its label), so
            the actions are on screen instead of off to the right of a 640 px wide table. */}
        <Card className="overflow-x-auto">
          <table className="w-full text-left text-sm sm:min-w-[640px]">
            <TableHead
              columns={["Code", "Partner", "Rabatt", "Status", "Erstellt", "Aktionen"]}
              className="border-b border-slate-200 text-xs uppercase text-slate-500 max-sm:hidden dark:text-slate-400 dark:border-slate-800"
              cellClassName="px-4 py-3"
            />
            <tbody className="divide-y divide-slate-200 max-sm:block dark:divide-slate-800">
              {codes.length === 0 ? (
                <tr>
                  <td
                    colSpan={6}
                    className="px-4 py-6 text-center text-slate-500 dark:text-slate-400"
                  >
                    Noch keine Affiliate-Codes angelegt.
                  </td>
                </tr>
              ) : (
                codes.map((code) => (
                  <tr
                    key={code.id}
                    className="max-sm:block max-sm:space-y-1 max-sm:px-4 max-sm:py-3"
                  >
                    <td className={`${cell} font-mono font-semibold select-all`}>{code.code}</td>
                    <td className={cell}>
                      <Label>Partner</Label>
                      {code.name}
                      <span className="block text-xs text-slate-500 dark:text-slate-400">
                        {code.email}
                      </span>
                    </td>
                    <td className={cell}>
                      <Label>Rabatt</Label>
                      {code.discountValue}%
                    </td>
                    <td className={cell}>
                      <Label>Status</Label>
                      <span
                        className={`rounded-full px-2 py-0.5 text-xs font-semibold ${code.isActive ? "bg-green-100 text-green-800 dark:bg-green-950 dark:text-green-200" : "bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300"}`}
                      >
                        {code.isActive ? "Aktiv" : "Inaktiv"}
                      </span>
                    </td>
                    <td className={cell}>
                      <Label>Erstellt</Label>
                      {formatDate(code.createdAt)}
                    </td>
                    <td className={`${cell} max-sm:pt-2`}>
                      <div className="flex flex-wrap items-center gap-2">
                        <CopyButton
                          text={code.code}
                          label="Kopieren"
                          success="Code in die Zwischenablage kopiert!"
                          failure="Fehler beim Kopieren in die Zwischenablage!"
                        />
                        <CopyButton
                          text={`${origin}/?code=${code.code}`}
                          label="Link kopieren"
                          success="Link in die Zwischenablage kopiert!"
                          failure="Fehler beim Kopieren in die Zwischenablage!"
                        />
                        <PostButton
                          action={action}
                          fields={{
                            intent: "toggle",
                            id: code.id,
                            isActive: code.isActive ? "0" : "1",
                          }}
                          aria-label={`${code.code} ${code.isActive ? "deaktivieren" : "aktivieren"}`}
                        >
                          {code.isActive ? "Deaktivieren" : "Aktivieren"}
                        </PostButton>
                        <ConfirmAction
                          action={action}
                          fields={{ intent: "delete", id: String(code.id) }}
                          title="Affiliate-Code löschen"
                          message={DELETE_AFFILIATE_MESSAGE}
                          label="Löschen"
                          aria-label={`${code.code} löschen`}
                        />
                      </div>
                    </td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </Card>
      </div>
    </>
  );
}

/** Cells: table cells from 640 px, stacked lines of a card below. */
const cell = "px-4 py-3 max-sm:block max-sm:p-0";

/** The column name before a value, only where the cells are stacked (below 640 px). */
function Label({ children }: { children: string }) {
  return (
    <span className="mr-1 text-xs font-medium text-slate-500 sm:hidden dark:text-slate-400">
      {children}:
    </span>
  );
}
