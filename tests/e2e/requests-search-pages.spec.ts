import { randomBytes } from "node:crypto";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { expect, test } from "./fixtures";
import { removeRequest } from "./seed";

// The ranked search counts and pages through the covering index (ADR 175); the count in
// the heading and the numbered page links (plain links, with and without JS) stay.
test("a ranked search counts every hit and pages with numbered links", async ({
  page,
  loginAsNew,
}) => {
  const m = `suche${randomBytes(4).toString("hex")}`;
  const base = Date.now() - 3_600_000;
  const ids = Array.from(
    { length: 23 },
    (_, i) =>
      db()
        .insert(requests)
        .values({
          name: `Seitenkundin ${i}`,
          email: `${m}-${i}@example.com`,
          phone: "+49 30 1234 5678",
          companyDescription: "Bäckerei in Berlin",
          // Request 5 names the term twice in a short text: the most relevant one.
          description:
            i === 5 ? `${m} ${m}` : `Eine längere Beschreibung mit ${m} und vielen weiteren Worten`,
          status: i % 2 ? "Done" : "New",
          createdAt: new Date(base + i * 1000),
        })
        .returning({ id: requests.id })
        .get().id,
  );
  try {
    await loginAsNew(page);
    await page.goto(`/admin/requests?q=${m}`);
    await expect(page.getByRole("heading", { name: /Aktive Anfragen \(23\)/ })).toBeVisible();
    const names = page.locator("ul [data-request-name]");
    await expect(names).toHaveCount(20);
    // Most relevant first, then equally relevant ones newest first.
    await expect(names.nth(0)).toHaveText("Seitenkundin 5");
    await expect(names.nth(1)).toHaveText("Seitenkundin 22");
    const pages = page.getByRole("navigation", { name: "Seiten" });
    await expect(pages).toContainText("Zeige 1 bis 20 von 23 Anfragen");

    await pages.getByRole("link", { name: "2", exact: true }).click();
    await expect(page).toHaveURL(/page=2/);
    await expect(pages).toContainText("Zeige 21 bis 23 von 23 Anfragen");
    await expect(names).toHaveText(["Seitenkundin 2", "Seitenkundin 1", "Seitenkundin 0"]);

    // With a status filter the count and the pages follow the filter.
    await page.goto(`/admin/requests?q=${m}&status=Done`);
    await expect(page.getByRole("heading", { name: /Aktive Anfragen \(11\)/ })).toBeVisible();
    await expect(names).toHaveCount(11);
    await expect(page.getByRole("navigation", { name: "Seiten" })).toHaveCount(0);
  } finally {
    for (const id of ids) await removeRequest(id);
  }
});
