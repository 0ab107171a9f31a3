import { randomBytes } from "node:crypto";
import { requestIdOf, submitVisitorRequest, withConfiguration } from "./fidelity-helpers";
import { expect, test } from "./fixtures";

const unique = () => randomBytes(4).toString("hex");

test("booking switched off: no demo offer after submitting, and /termin answers 404", async ({
  page,
  javaScriptEnabled,
}) => {
  const email = `aus-${unique()}@example.com`;
  await withConfiguration({ appointmentEventType: null }, async () => {
    const success = await submitVisitorRequest(page, "Olga Ohne", email, javaScriptEnabled);
    await expect(success).toContainText("Anfrage #");
    await expect(page.getByText("Demo-Termin buchen")).toHaveCount(0);
    await expect(page.getByText("Lust auf eine persönliche Demo?")).toHaveCount(0);
    const response = await page.goto(`/termin?anfrage=${requestIdOf(email)}`);
    expect(response?.status()).toBe(404);
  });
  // Switched on again: the same visitor's request offers the booking page.
  const response = await page.goto(`/termin?anfrage=${requestIdOf(email)}`);
  expect(response?.status()).toBe(200);
});
