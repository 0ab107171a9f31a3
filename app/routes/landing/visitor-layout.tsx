import { Outlet } from "react-router";
import { SiteHeader } from "~/components/landing/header";
import { getVisitorRequestIds } from "~/server/visitors/visitor.server";
import type { Route } from "./+types/visitor-layout";

/**
 * The visitor's pages beside the landing page (booking, managing a demo, withdrawing a request):
 * the landing page's site header above each, also above their error pages (invalid or expired
 * links). "Meine Anfragen" shows when this browser holds the visitor's requests, as on the landing.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return { hasHistory: (await getVisitorRequestIds(request)).length > 0 };
}

export default function VisitorLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <SiteHeader hasHistory={loaderData.hasHistory} />
      <Outlet />
    </>
  );
}
