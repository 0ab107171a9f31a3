import { branding } from "../branding/branding.server";

/**
 * Where a path no route serves leads (the spec: "any unknown path redirects to /"), except the
 * few addresses people type or guess that have a real target: /datenschutz and /impressum lead to
 * the brand's legal pages (external, like the footer's links), /admin/requests/<id> opens that
 * request in the list (its link in a notification mail).
 */
export function unknownPathTarget(pathname: string): string {
  const path = pathname.replace(/\/+$/, "").toLowerCase();
  if (path === "/datenschutz") return branding().privacyUrl;
  if (path === "/impressum") return branding().imprintUrl;
  const request = /^\/admin\/requests\/(\d{1,9})$/.exec(path);
  if (request) return `/admin/requests?requestId=${request[1]}`;
  return "/";
}
