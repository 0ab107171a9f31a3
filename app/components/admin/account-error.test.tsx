import type { ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { AccountError } from "./account-error";

const error = new Error("x");
const ToLogin = () => <AccountError error={error} fallback="Fehler beim Abrufen" />;
const ToDashboard = () => <AccountError error={error} fallback="Fehler" back="dashboard" />;
const Reload = () => <AccountError error={error} fallback="Fehler" back="reload" />;

/** The view as the error page of /admin/users. */
function render(Component: ComponentType) {
  const Stub = createRoutesStub([{ path: "/admin/users", Component }]);
  return renderToStaticMarkup(<Stub initialEntries={["/admin/users"]} />);
}

describe("AccountError", () => {
  it("shows the fallback and, by default, the way to the login", () => {
    const html = render(ToLogin);
    expect(html).toContain("Fehler beim Abrufen");
    expect(html).toMatch(/href="\/admin\/login"[^>]*>Zum Login</);
  });

  it("links to the dashboard, or reloads the page it is on", () => {
    expect(render(ToDashboard)).toMatch(/href="\/admin\/dashboard"[^>]*>Zum Dashboard</);
    expect(render(Reload)).toMatch(/href="\/admin\/users"[^>]*>Erneut laden</);
  });
});
