// Which route of the React Router build answers a path: its id and pattern, never the raw path (so
// tokens and file names in paths stay out of logs and metric labels). The one normalisation of a
// path for what Express decides by route (logs, metrics, compression; ADR 306): React Router's own,
// so every spelling of a path — `.data`, `_routes`, a trailing slash, case, percent-encodings —
// gets the route React Router will run.
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";

export type RouteLabel = { id: string; pattern: string };

/**
 * The path React Router matches for a request's URL path, as its `getNormalizedPath` (react-router
 * 8): a single-fetch data request `/x.data` is `/x`, `/_.data` is `/` (and `/x/_.data` is `/x/`).
 * The query (`_routes` picks only which of the matched loaders run) never changes the route.
 */
export function routerPathname(pathname: string): string {
  return pathname.endsWith("/_.data")
    ? pathname.replace(/_\.data$/, "")
    : pathname.replace(/\.data$/, "");
}

/** Matches a request target (`req.originalUrl`: path and query) to its route. */
export function routeMatcher(routes: ServerBuild["routes"]): (url: string) => RouteLabel {
  const byParent = new Map<string | undefined, RouteObject[]>();
  const nodes = new Map<string, RouteObject>();
  for (const route of Object.values(routes)) {
    if (!route) continue;
    const node = (
      route.index
        ? { id: route.id, index: true, path: route.path }
        : { id: route.id, path: route.path, caseSensitive: route.caseSensitive, children: [] }
    ) as RouteObject;
    nodes.set(route.id, node);
    const siblings = byParent.get(route.parentId) ?? [];
    siblings.push(node);
    byParent.set(route.parentId, siblings);
  }
  for (const [parentId, children] of byParent) {
    const parent = parentId ? nodes.get(parentId) : undefined;
    if (parent && !parent.index) parent.children = children;
  }
  const tree = byParent.get(undefined) ?? [];
  // matchRoutes flattens and ranks the whole route table on every call, and the logger and the
  // metrics both ask per request: answers are kept per path, bounded (oldest dropped first).
  const known = new Map<string, RouteLabel>();
  // The logger, the metrics and the compression filter ask about the same request target: the
  // answers are kept per target too (bounded alike), so a repeated target is not parsed again.
  const byTarget = new Map<string, RouteLabel>();
  return (url) => cached(byTarget, url, () => labelOf(url));

  function labelOf(url: string): RouteLabel {
    // Request targets (also absolute-form or garbage) never throw here: logs and metrics run on it.
    let pathname: string;
    try {
      pathname = new URL(url, "http://localhost").pathname;
    } catch {
      return { id: "unmatched", pattern: "unmatched" };
    }
    if (pathname.startsWith("/assets/")) return { id: "static", pattern: "/assets/*" };
    // Single-fetch data requests (`/x.data`, `/_.data`) belong to the route of `/x` (`/`).
    const path = routerPathname(pathname);
    return cached(known, path, () => matchPath(path));
  }

  function matchPath(path: string): RouteLabel {
    const matches = matchRoutes(tree, path);
    const last = matches?.at(-1);
    if (!last) return { id: "unmatched", pattern: "unmatched" };
    const pattern = `/${matches
      ?.map((m) => m.route.path)
      .filter(Boolean)
      .join("/")}`.replace(/\/+/g, "/");
    return { id: last.route.id ?? "unmatched", pattern };
  }
}

/** How many distinct paths the matcher remembers (paths with ids vary; the table stays small). */
const MAX_KNOWN_PATHS = 500;

/** The label kept for key, or a new one kept (keys over 200 characters are not kept). */
function cached(map: Map<string, RouteLabel>, key: string, label: () => RouteLabel): RouteLabel {
  const hit = map.get(key);
  if (hit) return hit;
  const fresh = label();
  if (key.length > 200) return fresh;
  if (map.size >= MAX_KNOWN_PATHS) map.delete(map.keys().next().value as string);
  map.set(key, fresh);
  return fresh;
}
