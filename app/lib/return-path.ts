/**
 * Where a request returns to, in one place (pure, isomorphic): the login page's `redirectTo`, the
 * target of a preference form post, and the page a form action redirects back to with a toast.
 */

export const LOGIN_PATH = "/admin/login";

/**
 * What no return path may hold (ADR 262): control characters, raw or encoded (a header with them
 * is a 500), a backslash (browsers read it as a slash: `/\\evil.example`), or in its path an encoded
 * slash or backslash (decoded by a later hop into the same; a query may encode them, as
 * URLSearchParams does). Such a value is ignored, never repaired.
 */
const hasControl = (value: string) =>
  Array.from(value).some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
const unsafePath = (value: string) =>
  hasControl(value) ||
  /\\|%(?:[01][0-9a-f]|7f)/i.test(value) ||
  /%(?:2f|5c)/i.test(value.split("?")[0] as string);

/** An admin page worth returning to after login (never the login page itself). */
export function isAdminReturnPath(path: string | null | undefined): path is string {
  return (
    typeof path === "string" &&
    (path === "/admin" || path.startsWith("/admin/") || path.startsWith("/admin?")) &&
    !path.startsWith(LOGIN_PATH) &&
    !unsafePath(path)
  );
}

/** The login page, with `redirectTo` when the admin was on an admin page. */
export function loginPath(returnTo: string | null | undefined): string {
  return isAdminReturnPath(returnTo)
    ? `${LOGIN_PATH}?redirectTo=${encodeURIComponent(returnTo)}`
    : LOGIN_PATH;
}

/** A same-site relative path (no `//host` or `/\host`), else the fallback. */
export function sameSitePath(value: unknown, fallback = "/"): string {
  if (
    typeof value !== "string" ||
    !value.startsWith("/") ||
    value.startsWith("//") ||
    unsafePath(value)
  )
    return fallback;
  return value;
}

/**
 * The page a form post goes back to: its document path (a fetcher's `.data` URL and `_routes`
 * stripped) with the query, without React Router's `index` marker.
 */
export function backPath(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  params.delete("index");
  params.delete("_routes");
  const path = pathname.replace(/\/_root\.data$/, "/").replace(/\.data$/, "");
  return `${path}${params.size ? `?${params}` : ""}`;
}
