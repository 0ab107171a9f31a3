import { AccountError } from "~/components/admin/account-error";
import { AffiliatePanel } from "~/components/admin/affiliates/affiliate-panel";
import { requireAdmin } from "~/server/accounts/auth.server";
import { readForm } from "~/server/http/http.server";
import type { Route } from "./+types/affiliate-codes";
import { affiliatePanelData, handleAffiliateAction } from "./affiliate-codes.server";

export const meta: Route.MetaFunction = () => [{ title: "Affiliate Codes" }];

export async function loader({ request }: Route.LoaderArgs) {
  await requireAdmin(request);
  return affiliatePanelData();
}

export async function action({ request }: Route.ActionArgs) {
  const admin = await requireAdmin(request);
  return handleAffiliateAction(await readForm(request), "/admin/affiliate-codes", admin);
}

export default function AffiliateCodesPage({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-bold">Affiliate Codes ({loaderData.codes.length})</h1>
      <AffiliatePanel codes={loaderData.codes} origin={loaderData.origin} actionData={actionData} />
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <AccountError error={error} fallback="Fehler beim Abrufen der Affiliate-Codes" />;
}
