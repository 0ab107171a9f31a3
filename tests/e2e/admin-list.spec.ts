import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { db } from "~/server/platform/db.server";
import { assignRequest } from "~/server/requests/manage.server";
import { appointments } from "~db/schema";
import { signIn } from "./auth";
import { expect, test } from "./fixtures";
import { seedAppointment } from "./seed";

// ADR 116: toasts never cover the save button; list rows show attachments, assignees and a
// booked demo at a glance.

type Box = { x: number; y: number; width: number; height: number };
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

for (const viewport of [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
]) {
  test(`settings at ${viewport.width} px: the saved toast does not cover the save button`, async ({
    page,
    openSettings,
  }) => {
    await openSettings(page, { viewport });
    const save = page.getByRole("button", { name: "Konfiguration speichern" });
    await save.click();
    const toast = page.locator("[data-toast]", {
      hasText: "Konfiguration erfolgreich gespeichert!",
    });
    await expect(toast).toBeVisible();
    // The sticky save bar is on screen (the page may have scrolled back to the top without JS).
    await expect(save).toBeInViewport();
    const toastBox = await toast.boundingBox();
    const saveBox = await save.boundingBox();
    expect(toastBox && saveBox).toBeTruthy();
    expect(overlap(toastBox as Box, saveBox as Box), JSON.stringify({ toastBox, saveBox })).toBe(
      false,
    );
    // And the button is really reachable: the element at its centre is the button itself.
    const hit = await save.evaluate((button) => {
      const r = button.getBoundingClientRect();
      const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return top === button || button.contains(top);
    });
    expect(hit).toBe(true);
  });
}

test("request rows show attachments, assignees and a booked demo at a glance", async ({
  page,
  seed,
}) => {
  const tag = randomBytes(3).toString("hex");
  const withAll = await seed.request({ name: `Alles ${tag}`, pdf: `Skizze-${tag}.pdf` });
  await seed.request({ name: `Nichts ${tag}` });
  const admin = await seed.admin();
  assignRequest(withAll, "add", admin.id);
  const start = new Date(Date.now() + 3 * 86_400_000);
  start.setUTCHours(9, 0, 0, 0);
  const appointment = seedAppointment({
    name: `Demo ${tag}`,
    startTime: start,
    status: "ACCEPTED",
  });
  db()
    .update(appointments)
    .set({ requestId: withAll })
    .where(eq(appointments.id, appointment.id))
    .run();
  try {
    await signIn(page, admin, { to: `/admin/requests?q=${tag}` });
    const full = page.getByTestId("request-row").filter({ hasText: `Alles ${tag}` });
    const glance = full.getByRole("list", { name: "Auf einen Blick" });
    await expect(glance.getByRole("listitem")).toHaveText([
      /1 Anhang/,
      new RegExp(`Zugewiesen an ${admin.username}`),
      /Demo-Termin gebucht: \d{2}\.\d{2}\.\d{4}/,
    ]);
    await expect(glance.locator("svg[data-icon=paperclip]")).toHaveCount(1);
    await expect(glance.locator("svg[data-icon=calendar]")).toHaveCount(1);
    // A request with none of it shows no glance line.
    const bare = page.getByTestId("request-row").filter({ hasText: `Nichts ${tag}` });
    await expect(bare.getByRole("list", { name: "Auf einen Blick" })).toHaveCount(0);
  } finally {
    db().delete(appointments).where(eq(appointments.id, appointment.id)).run();
  }
});
