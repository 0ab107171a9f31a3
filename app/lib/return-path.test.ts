import { describe, expect, it } from "vitest";
import { backPath, isAdminReturnPath, loginPath, sameSitePath } from "./return-path";

describe("return paths", () => {
  it("returns to admin pages after login, never to the login page or elsewhere", () => {
    expect(loginPath("/admin/requests?status=new")).toBe(
      "/admin/login?redirectTo=%2Fadmin%2Frequests%3Fstatus%3Dnew",
    );
    expect(loginPath("/admin/login?redirectTo=x")).toBe("/admin/login");
    expect(loginPath("/")).toBe("/admin/login");
    expect(loginPath(null)).toBe("/admin/login");
    expect(isAdminReturnPath("/admin/settings")).toBe(true);
    expect(isAdminReturnPath("https://evil.example/admin")).toBe(false);
  });

  it("keeps only same-site relative paths", () => {
    expect(sameSitePath("/termin?anfrage=3")).toBe("/termin?anfrage=3");
    expect(sameSitePath("//evil.example")).toBe("/");
    expect(sameSitePath("/\\evil.example", "/x")).toBe("/x");
    expect(sameSitePath("https://evil.example")).toBe("/");
    expect(sameSitePath(null)).toBe("/");
  });

  it("ignores control characters, a backslash or an encoded slash (ADR 262)", () => {
    for (const hostile of [
      "/admin/requests\r\nSet-Cookie: x=1",
      "/admin/requests%0d%0aLocation: https://evil.example",
      "/admin\u0000",
      "/admin/\\evil.example",
      "/admin\\@evil.example",
      "/admin%2F%2Fevil.example",
      "/admin/..%2f..%2f%2fevil.example",
      "/admin/%5Cevil.example",
      "/admin.evil.example",
      "/administrator",
    ]) {
      expect(isAdminReturnPath(hostile), hostile).toBe(false);
      expect(loginPath(hostile), hostile).toBe("/admin/login");
    }
    expect(sameSitePath("/termin\r\nx")).toBe("/");
    expect(sameSitePath("/%2F%2Fevil.example")).toBe("/");
    expect(sameSitePath("/%5cevil.example")).toBe("/");
    // A query may carry an encoded slash (URLSearchParams writes one): still a return path.
    expect(isAdminReturnPath("/admin/requests?q=a%2Fb")).toBe(true);
    expect(isAdminReturnPath("/admin")).toBe(true);
  });

  it("goes back to the document page without the index marker or data suffix", () => {
    expect(backPath("/admin/appointments.data", "?index&status=pending&_routes=r")).toBe(
      "/admin/appointments?status=pending",
    );
    expect(backPath("/_root.data", "")).toBe("/");
    expect(backPath("/admin/requests", "?index")).toBe("/admin/requests");
  });
});
