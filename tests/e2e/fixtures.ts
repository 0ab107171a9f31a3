import { test as base, expect } from "@playwright/test";
import { INBOX_URL } from "./ports";

export type ReceivedMail = {
  to: string[];
  subject: string;
  text: string;
  html: string;
  receivedAt: string;
};

/** Waits until a mail to `to` (and matching `subject`, if given) has reached the loopback SMTP server. */
export async function waitForMail(
  to: string,
  subject?: RegExp,
  timeoutMs = 15_000,
): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = (await (await fetch(`${INBOX_URL}/mails`)).json()) as ReceivedMail[];
    const found = mails
      .reverse()
      .find(
        (m) =>
          m.to.some((r) => r.toLowerCase() === to.toLowerCase()) &&
          (!subject || subject.test(m.subject)),
      );
    if (found) return found;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
}

/** Every test fails on a console error in the page. */
export const test = base.extend<{ failOnConsoleError: undefined }>({
  failOnConsoleError: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on("console", (message) => {
        // A 4xx answer the test provokes on purpose (404 page, 409 slot taken) is not a page error.
        if (
          message.type() === "error" &&
          !/^Failed to load resource: the server responded with a status of 4\d\d/.test(
            message.text(),
          )
        ) {
          errors.push(message.text());
        }
      });
      page.on("pageerror", (error) => errors.push(error.message));
      // Tests never reach the internet: gtag.js (loaded after consent) is a stand-in.
      await page
        .context()
        .route("https://www.googletagmanager.com/**", (route) =>
          route.fulfill({ contentType: "text/javascript", body: "/* gtag.js stand-in */" }),
        );
      await use(undefined);
      expect(errors, "console errors in the page").toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };
