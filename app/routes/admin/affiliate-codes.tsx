import { useLocation } from "react-router";
import { AccountError } from "~/components/admin/account-error";
import {
  type AffiliateFormState,
  AffiliatePanel,
} from "~/components/admin/affiliates/affiliate-panel";
import { ConfirmationStep } from "~/components/ui/confirm-action";
import { listAffiliateCodes } from "~/server/affiliates.server";
import { requireAdmin } from "~/server/auth.server";
import { env } from "~/server/env.server";
import { readForm } from "~/server/http.server";
import type { Route } from "./+types/affiliate-codes";
import { handleAffiliateAction } from "./affiliate-codes.server";

export const meta: Route.MetaFunction = () => [{ title: "Affiliate Codes" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return { codes: listAffiliateCodes(), origin: env().APP_URL };
}

export async function action({ request }: Route.ActionArgs) {
  await requireAdmin(request);
  return handleAffiliateAction(await readForm(request), "/admin/affiliate-codes");
}

export default function AffiliateCodesPage({ loaderData, actionData }: Route.ComponentProps) {
  const location = useLocation();
  const form = (actionData as { affiliateForm?: AffiliateFormState } | undefined)?.affiliateForm;
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-bold">Affiliate Codes ({loaderData.codes.length})</h1>
      <ConfirmationStep data={actionData} />
      <AffiliatePanel
        codes={loaderData.codes}
        origin={loaderData.origin}
        form={form}
        action={location.pathname}
      />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Abrufen der Affiliate-Codes" />;
}
