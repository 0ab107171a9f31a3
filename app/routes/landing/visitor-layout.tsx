import { Outlet } from "react-router";
import { Footer } from "~/components/landing/footer";
import { SiteHeader } from "~/components/landing/header";
import { visitorFooter } from "~/server/visitors/footer.server";
import { getVisitorRequestIds } from "~/server/visitors/visitor.server";
import type { Route } from "./+types/visitor-layout";

/**
 * The visitor's pages beside the landing page (booking, managing a demo, withdrawing a request,
 * the accessibility statement): the landing page's site header above each and its footer below
 * (legal links, "Barrierefreiheit"), also around their error pages (invalid or expired links).
 * "Meine Anfragen" shows when this browser holds the visitor's requests, as on the landing.
 */
export async function loader({ request }: Route.LoaderArgs) {
  return {
    hasHistory: (await getVisitorRequestIds(request)).length > 0,
    footer: visitorFooter(),
  };
}

export default function VisitorLayout({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <SiteHeader hasHistory={loaderData.hasHistory} />
      <Outlet />
      <Footer {...loaderData.footer} />
    </>
  );
}
