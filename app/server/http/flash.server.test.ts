import { describe, expect, it } from "vitest";
import { getToast, redirectWithToast } from "./flash.server";

function cookieOf(response: Response) {
  return response.headers.get("set-cookie")?.split(";")[0] ?? "";
}

describe("flash toasts", () => {
  it("carries a toast across a redirect and clears it when read", async () => {
    const response = await redirectWithToast("/admin/users", {
      type: "success",
      message: "Einladung gesendet",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/admin/users");
    const setCookie = response.headers.get("set-cookie") ?? "";
    expect(setCookie).toContain("__flash=");
    expect(setCookie.toLowerCase()).toContain("httponly");

    const request = new Request("http://localhost/admin/users", {
      headers: { cookie: cookieOf(response) },
    });
    const { toast, headers } = await getToast(request);
    expect(toast).toMatchObject({ type: "success", message: "Einladung gesendet" });
    expect(toast?.id).toMatch(/^[0-9a-f]{16}$/);
    expect(headers.get("set-cookie")).toMatch(/__flash=;.*Max-Age=0/i);
  });

  it("keeps the status and headers of the init", async () => {
    const response = await redirectWithToast(
      "/",
      { type: "error", message: "Fehler beim Löschen!" },
      { status: 303, headers: { "X-Test": "1" } },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("x-test")).toBe("1");
  });

  it("ignores a missing or forged cookie", async () => {
    expect((await getToast(new Request("http://localhost/"))).toast).toBeNull();
    const forged = Buffer.from(JSON.stringify({ id: "x", type: "info", message: "hi" })).toString(
      "base64",
    );
    const { toast } = await getToast(
      new Request("http://localhost/", { headers: { cookie: `__flash=${forged}` } }),
    );
    expect(toast).toBeNull();
  });
});
