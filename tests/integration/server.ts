import type { AddressInfo } from "node:net";
import { createApp, type EntryExtras, loadBuild, type RequestStats } from "../../server/app.ts";

/**
 * Starts the built request handler (build/server) inside the Vitest process on port 0, so MSW
 * intercepts its calls to Cal.com and Anthropic. Env overrides apply before the build is loaded.
 */
export async function startTestServer(envOverrides: Record<string, string | undefined> = {}) {
  for (const [key, value] of Object.entries(envOverrides)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  const { build, boot } = await loadBuild();
  const extras = build.entry.module as unknown as EntryExtras;
  const app = createApp(build, boot);
  const server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    /**
     * Sends every mail the server has queued and resolves when the outbox has nothing due: assert
     * "no mail was sent" after this, never after a sleep.
     */
    drainOutbox: (now?: Date) => extras.testHooks.drainOutbox(now),
    /** Sends every due webhook delivery; resolves when none is due any more. */
    drainWebhooks: () => extras.testHooks.drainWebhooks(),
    /**
     * The request bound's state (server/concurrency.ts, server/body-intake.ts): slots in work,
     * waiting, bodies in transit, and the small bodies being read ahead of the bound.
     */
    requestStats: () => (app.locals.requestStats as () => RequestStats)(),
    /** Every hook of the running server (app/server/platform/test-hooks.server.ts), e.g. renderCacheStats. */
    testHooks: extras.testHooks,
    /** fetch relative to the server; JSON bodies are serialised when `json` is given. */
    fetch(path: string, init: RequestInit & { json?: unknown; token?: string } = {}) {
      const headers = new Headers(init.headers);
      if (init.json !== undefined) headers.set("content-type", "application/json");
      if (init.token) headers.set("authorization", `Bearer ${init.token}`);
      return fetch(url + path, {
        ...init,
        headers,
        redirect: "manual",
        body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
      });
    },
    /**
     * Logs in through the API and returns the session token (Bearer). A pending first password
     * change (every admin call answers 403 until then) is completed, keeping the same password:
     * changed to a temporary one and back.
     */
    async adminToken(username = "admin", password = "admin-passwort"): Promise<string> {
      const res = await this.fetch("/api/admin/auth/login", {
        method: "POST",
        json: { username, password },
      });
      const body = (await res.json()) as { token: string; admin?: { password_changed?: boolean } };
      if (body.admin?.password_changed === false) {
        const temporary = `${password}-vorlaeufig`;
        for (const [oldPassword, newPassword] of [
          [password, temporary],
          [temporary, password],
        ]) {
          const changed = await this.fetch("/api/admin/auth/change-password", {
            method: "POST",
            token: body.token,
            json: { oldPassword, newPassword },
          });
          if (changed.status !== 200) throw new Error(`password change failed: ${changed.status}`);
        }
      }
      return body.token;
    },
    /** Logs in through the HTML form and returns the session cookie (`name=value`). */
    async adminCookie(username = "admin", password = "admin-passwort"): Promise<string> {
      const login = await this.fetch("/admin/login", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ username, password }).toString(),
      });
      return (login.headers.get("set-cookie") ?? "").split(";")[0];
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await boot.shutdown();
    },
  };
}
export type TestServer = Awaited<ReturnType<typeof startTestServer>>;
