import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { routeMatcher, routerPathname } from "../../server/route-match.ts";

const route = (id: string, parentId: string | undefined, path?: string, index?: boolean) => ({
  id,
  parentId,
  path,
  index,
  caseSensitive: undefined,
  module: {},
});
const routes = {
  root: route("root", undefined, ""),
  landing: route("routes/landing/index", "root", undefined, true),
  layout: route("routes/admin/layout", "root"),
  requests: route("routes/admin/requests", "routes/admin/layout", "admin/requests"),
  validate: route("invite-validate", "root", "api/admin/invitations/validate/:token"),
  catchAll: route("routes/catch-all", "root", "*"),
} as unknown as ServerBuild["routes"];

describe("route labels for logs and metrics", () => {
  const match = routeMatcher(routes);
  it("gives the route id and pattern, never the raw path or query", () => {
    expect(match("/?email=a@b.de")).toEqual({ id: "routes/landing/index", pattern: "/" });
    expect(match("/api/admin/invitations/validate/geheimes-token")).toEqual({
      id: "invite-validate",
      pattern: "/api/admin/invitations/validate/:token",
    });
    expect(match("/admin/requests?page=2")).toEqual({
      id: "routes/admin/requests",
      pattern: "/admin/requests",
    });
  });
  it("maps single-fetch data requests, assets and unknown paths", () => {
    expect(match("/admin/requests.data")).toMatchObject({ id: "routes/admin/requests" });
    expect(match("/admin/requests.data?_routes=root")).toMatchObject({
      id: "routes/admin/requests",
    });
    // React Router 8 asks for the root's data as `/_.data`; `/_root.data` is the path `/_root`.
    expect(match("/_.data")).toMatchObject({ id: "routes/landing/index" });
    expect(match("/_root.data")).toMatchObject({ id: "routes/catch-all" });
    expect(match("/assets/entry-abc.js")).toEqual({ id: "static", pattern: "/assets/*" });
    expect(match("/irgendwas/anderes")).toMatchObject({ id: "routes/catch-all" });
  });
  it("matches every spelling React Router matches to the same route (ADR 306)", () => {
    for (const path of [
      "/admin/requests/",
      "/ADMIN/Requests",
      "/admin/request%73",
      "/%61dmin/requests.data",
      "/admin/requests/_.data",
    ]) {
      expect(match(path), path).toMatchObject({ id: "routes/admin/requests" });
    }
  });
  it("normalises a path as React Router's getNormalizedPath", () => {
    expect(routerPathname("/_.data")).toBe("/");
    expect(routerPathname("/admin/_.data")).toBe("/admin/");
    expect(routerPathname("/api/admin/requests/export.csv.data")).toBe(
      "/api/admin/requests/export.csv",
    );
    expect(routerPathname("/x.data.data")).toBe("/x.data");
    expect(routerPathname("/x%2Edata")).toBe("/x%2Edata");
    expect(routerPathname("/x.DATA")).toBe("/x.DATA");
  });
  it("never throws on odd request targets", () => {
    expect(() => match("http://[::1")).not.toThrow();
    expect(match("http://[::1")).toEqual({ id: "unmatched", pattern: "unmatched" });
  });
});
