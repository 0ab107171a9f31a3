// The e2e test API: import `test` and `expect` from here (never from @playwright/test).
//
// Each Playwright worker starts its own stack (tests/e2e/stack.ts): the production server on its
// own database, uploads folder and ports, plus SMTP inbox and stand-ins. `baseURL` points at it,
// so `page.goto("/")` reaches this worker's server and specs never share configuration or data.
//
//   test("…", async ({ page, seed, loginAsNew, openSettings }) => {
//     const admin = await seed.admin();            // removed again after the test
//     await signIn(page, admin, { to: "/admin/users" }); // or: const admin = await loginAsNew(page);
//     const id = await seed.request({ pdf: "Lastenheft.pdf" });
//     seed.configuration({ infoBanner: { enabled: true, text: "Hallo" } }); // restored after
//     const mail = await waitForMail(admin.email, /Betreff/);
//     const card = await openSettings(page, { section: "spam", viewport: PHONE });
//   });
//
// `calcomApp` gives the second server (Cal.com provider) with a ready admin; `plainApp` a third one
// without SMTP and AI and with a strict login limit (tests/e2e/stack.ts).
import { test as base, expect, type Locator, type Page, type ViewportSize } from "@playwright/test";
import { GTAG_ORIGIN } from "~/lib/analytics";
import type { Configuration } from "~/lib/configuration";
import type { ImapStandIn } from "../imap-stand-in";
import type { ReceivedMail } from "../smtp-inbox";
import { signIn } from "./auth";
import { waitForHydration } from "./hydration";
import {
  patchConfiguration,
  removeAdmin,
  removeAffiliateCode,
  removeAppointment,
  removeRequest,
  type SeededAdmin,
  type SeedRequestInput,
  seedAdmin,
  seedAffiliateCode,
  seedAppointment,
  seedRequest,
  useStackDatabase,
} from "./seed";
import { FIRST_ADMIN, type Stack, startStack } from "./stack";

export type { ReceivedMail };

let current: Stack | undefined;

/** This worker's stack (for helpers outside fixtures). */
export function currentStack(): Stack {
  if (!current) throw new Error("e2e: no stack in this worker (import test from ./fixtures)");
  return current;
}

/** Waits until a mail to `to` (and matching `subject`, if given) reached this worker's SMTP server. */
export function waitForMail(
  to: string,
  subject?: RegExp,
  timeoutMs = 15_000,
): Promise<ReceivedMail> {
  return currentStack().inbox.waitFor(to, subject, timeoutMs);
}

export type SeedApi = {
  admin(overrides?: Parameters<typeof seedAdmin>[0]): Promise<SeededAdmin>;
  request(input?: SeedRequestInput): Promise<number>;
  affiliateCode(input: {
    discountValue: number;
    name?: string;
    email?: string;
  }): ReturnType<typeof seedAffiliateCode>;
  appointment(input: Parameters<typeof seedAppointment>[0]): ReturnType<typeof seedAppointment>;
  /** Patches the configuration for this test; the previous one is restored afterwards. */
  configuration(patch: Partial<Configuration>): void;
};

type CalcomApp = { url: string; admin: { username: string; password: string } };

export const test = base.extend<
  {
    failOnConsoleError: undefined;
    seed: SeedApi;
    /** Seeds an admin, signs `page` in as it (on the dashboard) and returns its credentials. */
    loginAsNew: (page: Page) => Promise<SeededAdmin>;
    /**
     * The settings page as a new admin sees it: sets the window size (when given), logs `page` in
     * as a seeded admin, opens /admin/settings (at `#section`) and waits for hydration in the JS
     * project. Whatever the test saves is undone afterwards. Returns the section's card (or main).
     */
    openSettings: (
      page: Page,
      options?: { section?: string; viewport?: ViewportSize },
    ) => Promise<Locator>;
    calcomApp: CalcomApp;
    plainApp: CalcomApp;
    /** The app server with replies by IMAP and its IMAP stand-in (tests/e2e/stack.ts). */
    imapApp: CalcomApp & { imap: ImapStandIn };
  },
  { stack: Stack }
>({
  stack: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture's dependencies from this pattern.
    async ({}, use, workerInfo) => {
      const stack = await startStack(workerInfo.workerIndex);
      useStackDatabase(stack.app);
      current = stack;
      await use(stack);
      current = undefined;
      await stack.stop();
    },
    { scope: "worker", auto: true, timeout: 240_000 },
  ],
  baseURL: async ({ stack }, use) => {
    await use(stack.app.url);
  },
  seed: async ({ baseURL }, use) => {
    const cleanups: (() => unknown)[] = [];
    await use({
      async admin(overrides) {
        const admin = await seedAdmin(overrides);
        cleanups.push(() => removeAdmin(admin.id));
        return admin;
      },
      async request(input) {
        const id = await seedRequest(baseURL!, input);
        cleanups.push(() => removeRequest(id));
        return id;
      },
      affiliateCode(input) {
        const code = seedAffiliateCode(input);
        cleanups.push(() => removeAffiliateCode(code.id));
        return code;
      },
      appointment(input) {
        const row = seedAppointment(input);
        cleanups.push(() => removeAppointment(row.id));
        return row;
      },
      configuration(patch) {
        cleanups.push(patchConfiguration(patch));
      },
    });
    for (const cleanup of cleanups.reverse()) await cleanup();
  },
  loginAsNew: async ({ seed }, use) => {
    await use(async (page) => {
      const admin = await seed.admin();
      await signIn(page, admin);
      return admin;
    });
  },
  openSettings: async ({ seed, javaScriptEnabled }, use) => {
    await use(async (page, { section, viewport } = {}) => {
      seed.configuration({});
      if (viewport) await page.setViewportSize(viewport);
      const to = section ? `/admin/settings#${section}` : "/admin/settings";
      await signIn(page, await seed.admin(), { to });
      if (javaScriptEnabled) await waitForHydration(page);
      return page.locator(section ? `#${section}` : "main");
    });
  },
  calcomApp: async ({ stack }, use) => {
    // Its first admin comes from ADMIN_* (tests/e2e/stack.ts) and may log in right away.
    const server = await stack.calcomApp();
    await use({
      url: server.url,
      admin: { username: FIRST_ADMIN.username, password: FIRST_ADMIN.password },
    });
  },
  plainApp: async ({ stack }, use) => {
    const server = await stack.plainApp();
    await use({
      url: server.url,
      admin: { username: FIRST_ADMIN.username, password: FIRST_ADMIN.password },
    });
  },
  imapApp: async ({ stack }, use) => {
    const { server, imap } = await stack.imapApp();
    await use({
      url: server.url,
      admin: { username: FIRST_ADMIN.username, password: FIRST_ADMIN.password },
      imap,
    });
  },
  /** Every test fails on a console error in the page. */
  failOnConsoleError: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        if (message.type() !== "error") return;
        // A 4xx answer the test provokes on purpose (404 page, 409 slot taken) is not a page error.
        const text = message.text();
        if (/^Failed to load resource: the server responded with a status of 4\d\d/.test(text))
          return;
        // Tests never reach the internet: the e2e browser resolves gtag.js's host to nothing
        // (scripts/chromium.ts), so the script a consent starts fails to load, and says so here.
        // (A route stand-in made every request of every test a round trip through Playwright:
        // routing intercepts all of a context's requests and turns its HTTP cache off.)
        if (message.location().url.startsWith(GTAG_ORIGIN)) return;
        errors.push(text);
      });
      page.on("pageerror", (error) => errors.push(error.message));
      await use(undefined);
      expect(errors, "console errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };
