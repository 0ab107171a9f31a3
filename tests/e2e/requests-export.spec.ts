import { randomBytes } from "node:crypto";
import { db } from "~/server/platform/db.server";
import { requests } from "~db/schema";
import { expect, test } from "./fixtures";
import { removeRequest } from "./seed";

// "Als CSV exportieren" sits beside the list's heading, in view on a
// phone (the filter panel is folded there), and downloads the list as shown — search and filters
// applied — as German Excel CSV, with and without JS.
for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  test(`the list's CSV export is in view and downloads what the list shows (${viewport.width} px)`, async ({
    page,
    loginAsNew,
  }) => {
    await page.setViewportSize(viewport);
    const m = `export${randomBytes(4).toString("hex")}`;
    const ids = [0, 1, 2].map(
      (i) =>
        db()
          .insert(requests)
          .values({
            name: `Exportkundin ${i}`,
            email: `${m}-${i}@example.com`,
            phone: "+49 30 1234 5678",
            companyDescription: "Bäckerei in Berlin",
            description: `Eine Beschreibung mit ${m}`,
            status: i === 2 ? "Done" : "New",
            createdAt: new Date(Date.now() - 3_600_000 + i * 1000),
          })
          .returning({ id: requests.id })
          .get().id,
    );
    try {
      await loginAsNew(page);
      await page.goto(`/admin/requests?q=${m}&status=New`);
      await expect(page.getByRole("heading", { name: /Aktive Anfragen \(2\)/ })).toBeVisible();
      const link = page.getByRole("link", { name: "Als CSV exportieren" });
      await expect(link).toBeInViewport();
      await page.screenshot({ path: test.info().outputPath(`export-${viewport.width}.png`) });

      const download = page.waitForEvent("download");
      await link.click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/^anfragen-\d{4}-\d{2}-\d{2}\.csv$/);
      const text = Buffer.concat(await (await file.createReadStream()).toArray()).toString("utf8");
      expect(text.startsWith("\uFEFF")).toBe(true);
      const lines = text.slice(1).trimEnd().split("\r\n");
      expect(lines[0]).toContain(";Eingegangen;");
      // The two "Neu" hits, newest first; the "Erledigt" one is filtered out.
      expect(lines.slice(1).map((l) => /Exportkundin \d/.exec(l)?.[0])).toEqual([
        "Exportkundin 1",
        "Exportkundin 0",
      ]);
    } finally {
      for (const id of ids) await removeRequest(id);
    }
  });
}
