import { loginAs } from "./auth";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";

const marker = () => Math.random().toString(16).slice(2, 10);

test("preparation: an unrelated change in another tab is no conflict; a real one keeps the draft", async ({
  page,
  javaScriptEnabled,
  seed,
}) => {
  const m = marker();
  const id = await seed.request({
    name: `Kundin ${m}`,
    email: `${m}@example.com`,
    phone: "+49 30 1234 5678",
    companyDescription: `Tischlerei ${m} mit zwölf Angestellten in Leipzig`,
    description: `Eine Auftragsverwaltung ${m}.`,
  });
  await loginAs(page, await seed.admin());
  await page.goto(`/admin/requests?requestId=${id}`);
  const view = page.getByRole("dialog", { name: `Kundin ${m}` });
  await expect(view).toBeVisible();
  if (javaScriptEnabled) await waitForHydration(page);

  // "Tab B" (same session) changes only the status.
  const otherTab = (fields: Record<string, string>) =>
    page.request.post(`/admin/requests?requestId=${id}`, {
      form: { id: String(id), ...fields },
      maxRedirects: 0,
    });
  expect((await otherTab({ intent: "status", status: "Done" })).status()).toBe(302);
  await view.getByLabel("Kernfunktionen").fill(`Montageplanung ${m}`);
  await view.getByRole("button", { name: "Vorbereitung speichern" }).click();
  await expect(page.getByText("Vorbereitung gespeichert.")).toBeVisible();
  await expect(view.getByLabel("Kernfunktionen")).toHaveValue(`Montageplanung ${m}`);

  // Tab B now changes the texts themselves: tab A's save conflicts, and its draft stays.
  const loadedUpdatedAt = await view.locator('input[name="updatedAt"]').inputValue();
  expect(
    (
      await otherTab({
        intent: "preparation",
        updatedAt: loadedUpdatedAt,
        "prep.kernfunktionen": `Fassung B ${m}`,
      })
    ).status(),
  ).toBe(302);
  await view.getByLabel("Zielgruppe").fill(`Mein Entwurf ${m}`);
  await view.getByRole("button", { name: "Vorbereitung speichern" }).click();
  await expect(
    view.getByText("Die Vorbereitung wurde inzwischen von jemand anderem geändert."),
  ).toBeVisible();
  await expect(view.getByLabel("Zielgruppe")).toHaveValue(`Mein Entwurf ${m}`);
  await expect(view.getByLabel("Kernfunktionen")).toHaveValue(`Montageplanung ${m}`);
  // Saving again (after the warning) wins; the reloaded page shows the draft as stored.
  await view.getByRole("button", { name: "Vorbereitung speichern" }).click();
  await expect(view.getByText("Die Vorbereitung wurde inzwischen")).toHaveCount(0);
  await page.reload();
  await expect(view.getByLabel("Zielgruppe")).toHaveValue(`Mein Entwurf ${m}`);
  await expect(view.getByLabel("Kernfunktionen")).toHaveValue(`Montageplanung ${m}`);
});
