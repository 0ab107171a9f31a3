import { signIn } from "./auth";
import { expect, test } from "./fixtures";

// The appointments' search box never cuts its placeholder, the spec's "Suchen nach Kontakten
// oder Inhalten..." (ADR 342): measured in the placeholder's own font at 320, 390, 1280 and
// 1400 px, with and without JS.
for (const width of [320, 390, 1280, 1400]) {
  test(`the search box shows its whole placeholder at ${width} px`, async ({
    page,
    seed,
  }, testInfo) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, await seed.admin(), { to: "/admin/appointments" });
    const search = page.getByRole("searchbox", { name: "Suche" });
    await expect(search).toHaveAttribute("placeholder", "Suchen nach Kontakten oder Inhalten...");
    await expect(search).toBeInViewport();
    const { text, room } = await search.evaluate((el) => {
      const input = el as HTMLInputElement;
      const style = getComputedStyle(input);
      const drawn = getComputedStyle(input, "::placeholder");
      const context = document.createElement("canvas").getContext("2d") as CanvasRenderingContext2D;
      context.font = `${drawn.fontStyle} ${drawn.fontWeight} ${drawn.fontSize} ${drawn.fontFamily}`;
      return {
        text: context.measureText(input.placeholder).width,
        room:
          input.clientWidth -
          Number.parseFloat(style.paddingLeft) -
          Number.parseFloat(style.paddingRight),
      };
    });
    expect(text).toBeLessThanOrEqual(room);
    await page.screenshot({ path: testInfo.outputPath(`appointments-search-${width}.png`) });
  });
}
