// SCRATCH walkthrough for issue 29 (helper newcomer29) — NOT TO BE MERGED.
// Exploratory: soft assertions and screenshots; the findings go into the report.
import { createServer, type Server } from "node:http";
import AxeBuilder from "@axe-core/playwright";
import type { Frame, Page } from "@playwright/test";
import { solvedAltcha } from "../altcha-solution";
import { expect, test } from "./fixtures";
import { waitForHydration } from "./hydration";
import { portsFor } from "./ports";
import { findRequestByEmail } from "./seed";
import { switchToDarkTheme } from "./theme";

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
test.describe.configure({ timeout: 240_000 });
test.use({ actionTimeout: 20_000 });

const LOGO_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGPgjpUjCTGMahjVMHw1AAAsE4YBU5gAAAAAAABJRU5ErkJggg==",
  "base64",
);

async function axe(page: Page, label: string, include?: string) {
  const builder = new AxeBuilder({ page });
  if (include) builder.include(include);
  const results = await builder.analyze();
  const list = results.violations.map(
    (v) => `${v.id} (${v.nodes.length}) ${v.nodes.map((n) => n.target).join(" | ")}`,
  );
  console.log(`AXE ${label}: ${JSON.stringify(list)}`);
  expect.soft(list, `axe ${label}`).toEqual([]);
}

async function inTopViewport(page: Page, locator: ReturnType<Frame["locator"]>) {
  const box = await locator.boundingBox();
  const vp = page.viewportSize();
  if (!box || !vp) return false;
  return box.y >= 0 && box.y + Math.min(box.height, 40) <= vp.height;
}

let host: Server;
let hostOrigin = "";
let pastedSnippet = "";

// biome-ignore lint/correctness/noEmptyPattern: fixture pattern
test.beforeAll(async ({}, workerInfo) => {
  const ports = portsFor(workerInfo.workerIndex);
  host = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><html lang="de"><head><meta charset="utf-8"><title>Agentur Süd – Kontakt</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="margin:0;font-family:sans-serif"><main><h1 style="padding:0 16px">Agentur Süd – Kontakt</h1>
<p style="padding:0 16px">Ein Absatz der Agentur-Website vor dem Formular.</p>
${pastedSnippet}
<p style="padding:0 16px">Unter dem Formular geht die Seite weiter.</p></main></body></html>`);
  });
  const port = ports.app + 13;
  await new Promise<void>((resolve) => host.listen(port, "127.0.0.1", resolve));
  hostOrigin = `http://127.0.0.1:${port}`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => host.close(() => resolve()));
});

async function save(page: Page) {
  await page.getByRole("button", { name: "Konfiguration speichern" }).click();
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`walk 1: branding (${viewport.width})`, async ({
    page,
    browser,
    loginAsNew,
    seed,
    javaScriptEnabled,
    baseURL,
  }, testInfo) => {
    const shot = (name: string, full = false) =>
      page.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: full });
    seed.configuration({});
    await page.setViewportSize(viewport);
    await loginAsNew(page);
    await page.goto("/admin/settings");
    if (javaScriptEnabled) await waitForHydration(page);
    const card = page.locator("#branding");
    await card.scrollIntoViewIfNeeded();
    await shot("01-settings-branding-initial");
    await card.screenshot({ path: testInfo.outputPath("01b-card.png") });

    await card.getByLabel("Name", { exact: true }).fill("Agentur Süd");
    await card.getByLabel("Überschrift").fill("Ihre Website in drei Tagen – von Agentur Süd");
    await card.getByLabel("Unterzeile").fill("Wir bauen dir eine Testversion. Schnell.");
    await card.getByLabel("Versprechen über dem Formular").fill("Antwort in 24 Stunden.");
    await card.getByLabel("Nachricht nach dem Absenden").fill("Danke! Wir melden uns morgen.");
    await card.getByLabel("Firmenzeile im Footer").fill("© {jahr} Agentur Süd GmbH, München");
    const color = card.getByLabel(/^Hauptfarbe/);
    await color.fill("#fde047");
    await save(page);
    const err = card.getByText(/Kontrast/).last();
    await expect.soft(err).toBeVisible();
    await expect.soft(card.getByLabel(/^Hauptfarbe/)).toBeFocused();
    await expect.soft(card.getByLabel(/^Hauptfarbe/)).toBeInViewport();
    await shot("02-contrast-refused");
    console.log(
      "CONTRAST MSG:",
      await card
        .locator("#branding-primaryColor-error, [id$='primaryColor-error']")
        .allInnerTexts(),
    );
    // Did the other texts survive the refused save?
    console.log(
      "AFTER REFUSE name=",
      await card.getByLabel("Name", { exact: true }).inputValue(),
      "hero=",
      await card.getByLabel("Überschrift").inputValue(),
    );
    await card.getByLabel(/^Hauptfarbe/).fill("#0b5d1e");

    // FAQ: add, reorder, remove
    const add = card.getByRole("button", { name: "Frage hinzufügen" });
    await add.click();
    const count = await card.locator("ol > li").count();
    console.log("FAQ rows after add:", count);
    const newQ = card.getByLabel(`Frage ${count}`, { exact: true });
    await expect.soft(newQ).toBeFocused();
    await newQ.fill("Wie schnell seid ihr wirklich?");
    await card.locator(`#faq-${count - 1}-answer`).fill("Sehr schnell.");
    await shot("03-faq-added");
    await card.getByRole("button", { name: `Frage ${count} nach oben` }).click();
    await expect
      .soft(card.getByLabel(`Frage ${count - 1}`, { exact: true }))
      .toHaveValue("Wie schnell seid ihr wirklich?");
    console.log(
      "focused after move:",
      await page.evaluate(
        () => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.id,
      ),
    );
    const firstQ = await card.getByLabel("Frage 1", { exact: true }).inputValue();
    await card.getByRole("button", { name: `Frage „${firstQ}“ entfernen` }).click();
    console.log(
      "focused after remove:",
      await page.evaluate(
        () => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.id,
      ),
    );
    await shot("04-faq-moved-removed");

    // Reset a text
    await card.getByRole("button", { name: /Zurücksetzen \(Unterzeile/ }).click();
    await expect.soft(card.getByLabel("Unterzeile")).toHaveValue(/^Beschreib uns dein Vorhaben/);
    console.log("hero after reset:", await card.getByLabel("Überschrift").inputValue());
    console.log(
      "focused after reset:",
      await page.evaluate(() => document.activeElement?.id),
      "scrollY",
      await page.evaluate(() => window.scrollY),
    );
    await shot("05-after-reset");
    await save(page);
    const ok = page.getByText("Konfiguration erfolgreich gespeichert!");
    await expect.soft(ok).toBeVisible({ timeout: 30_000 });
    await expect.soft(ok).toBeInViewport();
    await shot("06-saved");

    await page.getByLabel("Neues Logo").setInputFiles({
      name: "logo.png",
      mimeType: "image/png",
      buffer: LOGO_PNG,
    });
    await page.getByRole("button", { name: "Logo hochladen" }).click();
    const logoOk = page.getByText("Logo gespeichert.");
    await expect.soft(logoOk).toBeVisible();
    await expect.soft(logoOk).toBeInViewport();
    await shot("07-logo-saved");
    if (javaScriptEnabled) {
      await axe(page, "settings light");
      await switchToDarkTheme(page);
      await page.goto("/admin/settings#branding");
      await axe(page, "settings dark");
      await shot("07b-settings-dark", true);
    }

    const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
    await visitor.setViewportSize(viewport);
    for (const theme of ["light", "dark"] as const) {
      await visitor.emulateMedia({ colorScheme: theme });
      await visitor.goto("/");
      if (javaScriptEnabled) await waitForHydration(visitor);
      const body = await visitor.locator("body").innerText();
      const left = body.split("\n").filter((l) => /Anfrage-Portal/.test(l));
      console.log(`LANDING ${theme} ${viewport.width} Anfrage-Portal lines:`, JSON.stringify(left));
      console.log("title:", await visitor.title());
      await visitor.screenshot({
        path: testInfo.outputPath(`10-landing-${theme}.png`),
        fullPage: true,
      });
      await visitor.screenshot({ path: testInfo.outputPath(`10b-landing-${theme}-top.png`) });
      if (javaScriptEnabled) await axe(visitor, `landing ${theme}`);
    }
    // Submit on the landing page: the success message
    await visitor.emulateMedia({ colorScheme: "light" });
    await visitor.goto("/#kontakt");
    if (javaScriptEnabled) await waitForHydration(visitor);
    const tag = Math.random().toString(36).slice(2, 8);
    await visitor.getByLabel("Name").fill(`Walk ${tag}`);
    await visitor.getByLabel("E-Mail").fill(`walk-${tag}@example.com`);
    await visitor.getByLabel("Telefon").fill("+49 30 555 1234");
    await visitor.getByLabel("Beschreibe dein Unternehmen").fill("Eine Bäckerei in Ulm");
    if (!javaScriptEnabled) {
      const payload = await solvedAltcha(baseURL as string);
      await visitor.locator("#contact-form").evaluate((form, value) => {
        const field = document.createElement("input");
        field.type = "hidden";
        field.name = "altcha";
        field.value = value;
        form.append(field);
      }, payload);
    }
    await visitor.getByRole("button", { name: "Anfrage senden" }).click();
    const success = visitor.getByTestId("submission-success");
    await expect.soft(success).toBeVisible({ timeout: 30_000 });
    console.log("landing success text:", await success.innerText().catch(() => "-"));
    await visitor.screenshot({ path: testInfo.outputPath("11-landing-sent.png") });
    // Other public pages: any "Anfrage-Portal" left?
    for (const path of ["/termin", "/datenschutz", "/impressum", "/embed"]) {
      const res = await visitor.goto(path);
      const text = await visitor.locator("body").innerText();
      console.log(
        `PAGE ${path} ${res?.status()} title=${await visitor.title()} AP=${/Anfrage-Portal/.test(text)}`,
      );
    }
    await visitor.context().close();
  });
}

for (const viewport of [PHONE, DESKTOP]) {
  test(`walk 2: embed (${viewport.width})`, async ({
    page,
    browser,
    loginAsNew,
    seed,
    javaScriptEnabled,
    baseURL,
  }, testInfo) => {
    const shot = (p: Page, name: string, full = false) =>
      p.screenshot({ path: testInfo.outputPath(`${name}.png`), fullPage: full });
    seed.configuration({ embed: { allowedOrigins: [] } });
    await page.setViewportSize(viewport);
    await loginAsNew(page);
    await page.goto("/admin/settings#embed");
    if (javaScriptEnabled) await waitForHydration(page);
    const section = page.locator("#embed");
    await section.scrollIntoViewIfNeeded();
    await shot(page, "20-embed-initial");
    console.log("snippet before origins:", await section.getByTestId("embed-snippet").count());
    for (const bad of ["http://example.com", "https://x.com/path"]) {
      if ((await section.getByRole("textbox", { name: "Erlaubte Website 1" }).count()) === 0)
        await section.getByRole("button", { name: "Website hinzufügen" }).click();
      const first = section.getByRole("textbox", { name: "Erlaubte Website 1" });
      await first.fill(bad);
      await save(page);
      await expect.soft(first).toHaveAttribute("aria-invalid", "true");
      console.log(
        `REFUSED ${bad}:`,
        await first.evaluate((el) => {
          const ids = (el.getAttribute("aria-describedby") ?? "").split(" ");
          return ids.map((id) => document.getElementById(id)?.textContent).join(" / ");
        }),
      );
      await expect.soft(first).toBeFocused();
      await expect.soft(first).toBeInViewport();
      await shot(page, `21-refused-${bad.replace(/\W+/g, "_")}`);
    }
    await section.getByRole("textbox", { name: "Erlaubte Website 1" }).fill(hostOrigin);
    await save(page);
    await expect.soft(page.getByText("Konfiguration erfolgreich gespeichert!")).toBeVisible({
      timeout: 30_000,
    });
    await page.goto("/admin/settings#embed");
    if (javaScriptEnabled) await waitForHydration(page);
    await section.getByTestId("embed-snippet").scrollIntoViewIfNeeded();
    await shot(page, "22-snippet");
    if (javaScriptEnabled) {
      const copy = section.getByRole("button", { name: /kopieren/i }).first();
      console.log(
        "copy buttons:",
        await section.getByRole("button", { name: /kopieren/i }).count(),
      );
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
      await copy.click().catch((e) => console.log("copy click failed", String(e)));
      await shot(page, "22b-copied");
      await axe(page, "embed settings", "#embed");
    }
    const iframe = await section.getByTestId("embed-snippet-iframe").innerText();
    const script = await section.getByTestId("embed-snippet-script").innerText();
    console.log("SNIPPET iframe:", iframe, "\nSCRIPT:", script);
    pastedSnippet = `${iframe}\n${script}`;

    // The visitor on the agency's website.
    const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
    await visitor.setViewportSize(viewport);
    await visitor.goto(`${hostOrigin}/kontakt?utm_source=website`);
    let frame: Frame | undefined;
    await expect
      .poll(() => {
        frame = visitor.frames().find((f) => /\/embed(\?|$)/.test(f.url()));
        return Boolean(frame);
      })
      .toBe(true);
    const f = frame as Frame;
    await expect(f.getByLabel("Name")).toBeVisible();
    if (javaScriptEnabled) await f.locator("section[data-hydrated]").waitFor({ state: "attached" });
    await shot(visitor, "30-host-page", true);
    await shot(visitor, "30b-host-top");
    const tag = Math.random().toString(36).slice(2, 8);
    const email = `embedwalk-${tag}@example.com`;
    await f.getByLabel("Name").fill(`Eingebettet ${tag}`);
    await f.getByLabel("E-Mail").fill(email);
    await f.getByLabel("Telefon").fill("+49 30 555 1234");
    await f.getByLabel("Beschreibe dein Unternehmen").fill("Eine Schreinerei in Leipzig");
    if (!javaScriptEnabled) {
      const payload = await solvedAltcha(baseURL as string);
      await f.locator("#contact-form").evaluate((form, value) => {
        const field = document.createElement("input");
        field.type = "hidden";
        field.name = "altcha";
        field.value = value;
        form.append(field);
      }, payload);
    }
    await f.getByRole("button", { name: "Anfrage senden" }).click();
    const success = f.getByTestId("submission-success");
    await expect.soft(success).toBeVisible({ timeout: 30_000 });
    console.log("EMBED success text:", await success.innerText().catch(() => "-"));
    console.log("EMBED success role:", await success.getAttribute("role").catch(() => "-"));
    console.log("EMBED success in TOP viewport:", await inTopViewport(visitor, success));
    console.log(
      "frame height:",
      await visitor
        .locator("iframe")
        .first()
        .evaluate((el) => el.getBoundingClientRect().height),
      "top scrollY",
      await visitor.evaluate(() => window.scrollY),
    );
    await shot(visitor, "31-embed-sent");
    await shot(visitor, "31b-embed-sent-full", true);
    const links = await success
      .getByRole("link")
      .evaluateAll((els) =>
        els.map(
          (e) =>
            `${e.textContent?.trim()} -> ${e.getAttribute("href")} target=${e.getAttribute("target")}`,
        ),
      );
    console.log("booking links:", JSON.stringify(links));
    const buttons = await success.getByRole("button").allInnerTexts();
    console.log("buttons in success:", JSON.stringify(buttons));
    const created = findRequestByEmail(email);
    console.log("CREATED attribution:", JSON.stringify(created?.attribution), "id", created?.id);

    // The admin list
    await page.goto("/admin");
    if (javaScriptEnabled) await waitForHydration(page);
    const row = page.getByText(`Eingebettet ${tag}`).first();
    await row.scrollIntoViewIfNeeded().catch(() => {});
    await shot(page, "40-admin-list");
    const listText = await page.locator("main").innerText();
    const idx = listText.indexOf(`Eingebettet ${tag}`);
    console.log("ADMIN row text:", listText.slice(idx, idx + 400).replace(/\n/g, " | "));
    if (created?.id) {
      await page.goto(`/admin/requests/${created.id}`);
      await shot(page, "41-admin-detail", true);
      const detail = await page.locator("main").innerText();
      const di = detail.indexOf("Verweisende Seite");
      console.log(
        "DETAIL origin:",
        di >= 0 ? detail.slice(di - 200, di + 200).replace(/\n/g, " | ") : "NOT FOUND",
      );
    }
    if (javaScriptEnabled) await axe(page, "admin list");
    await visitor.context().close();
  });
}

test("walk 3: branded frame, admin list source, dirty-on-load, reset focus, wide logo", async ({
  page,
  browser,
  loginAsNew,
  seed,
  javaScriptEnabled,
  baseURL,
}, testInfo) => {
  seed.configuration({
    branding: {
      name: "Agentur Süd",
      primaryColor: "#0b5d1e",
    } as never,
    embed: { allowedOrigins: [hostOrigin] },
  });
  const snippetText = `<iframe src="${baseURL}/embed" title="Kontaktformular" allow="microphone" loading="lazy" style="width:100%;height:900px;border:0" data-anfrage-portal></iframe>\n<script src="${baseURL}/embed.js?v=1" defer></script>`;
  pastedSnippet = snippetText;
  await page.setViewportSize(PHONE);
  await loginAsNew(page);
  await page.goto("/admin/settings");
  if (javaScriptEnabled) await waitForHydration(page);
  const dirty = await page.getByText("Ungespeicherte Änderungen", { exact: true }).isVisible();
  console.log("DIRTY ON FRESH LOAD:", dirty);
  await page.screenshot({ path: testInfo.outputPath("50-fresh-load.png") });
  const card = page.locator("#branding");
  const reset = card.getByRole("button", { name: /Zurücksetzen \(Überschrift/ });
  await card.getByLabel("Überschrift").fill("Neu");
  await reset.click();
  console.log(
    "RESET focus:",
    await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120)),
    "value:",
    await card.getByLabel("Überschrift").inputValue(),
    "url:",
    page.url(),
  );
  await page.screenshot({ path: testInfo.outputPath("51-after-reset.png") });

  // A wide wordmark logo (400×100).
  const wide = await page
    .evaluate(() => {
      const c = document.createElement("canvas");
      c.width = 400;
      c.height = 100;
      const g = c.getContext("2d") as CanvasRenderingContext2D;
      g.fillStyle = "#0b5d1e";
      g.fillRect(0, 0, 400, 100);
      g.fillStyle = "#fff";
      g.font = "bold 60px sans-serif";
      g.fillText("AGENTUR", 20, 75);
      return c.toDataURL("image/png").split(",")[1];
    })
    .catch(() => null);
  if (wide) {
    await page.getByLabel("Neues Logo").setInputFiles({
      name: "wide.png",
      mimeType: "image/png",
      buffer: Buffer.from(wide, "base64"),
    });
    await page.getByRole("button", { name: "Logo hochladen" }).click();
    await expect.soft(page.getByText("Logo gespeichert.")).toBeVisible();
  }

  const visitor = await (await browser.newContext({ javaScriptEnabled })).newPage();
  await visitor.setViewportSize(PHONE);
  await visitor.goto("/");
  const img = visitor.locator("header img").first();
  if (wide) {
    console.log("WIDE LOGO box:", JSON.stringify(await img.boundingBox()));
    await visitor.screenshot({
      path: testInfo.outputPath("52-wide-logo-390.png"),
      clip: { x: 0, y: 0, width: 390, height: 80 },
    });
  }
  await visitor.goto(`${hostOrigin}/kontakt`);
  let frame: Frame | undefined;
  await expect
    .poll(() => {
      frame = visitor.frames().find((f) => /\/embed(\?|$)/.test(f.url()));
      return Boolean(frame);
    })
    .toBe(true);
  const f = frame as Frame;
  await expect(f.getByLabel("Name")).toBeVisible();
  await visitor.screenshot({ path: testInfo.outputPath("53-branded-frame.png") });
  console.log(
    "FRAME button bg:",
    await f
      .getByRole("button", { name: "Anfrage senden" })
      .evaluate((b) => getComputedStyle(b).backgroundColor),
    "eyebrow:",
    (await f.locator("body").innerText()).slice(0, 80).replace(/\n/g, " | "),
  );
  if (javaScriptEnabled) {
    for (const scheme of ["light", "dark"] as const) {
      const p = await (await browser.newContext({ colorScheme: scheme })).newPage();
      await p.setViewportSize(PHONE);
      await p.goto(`${baseURL}/embed`);
      await waitForHydration(p);
      await axe(p, `branded /embed ${scheme}`);
      await p.screenshot({
        path: testInfo.outputPath(`54-embed-branded-${scheme}.png`),
        fullPage: true,
      });
      await p.context().close();
    }
  }
  // A request from the frame, then the admin list.
  const tag = Math.random().toString(36).slice(2, 8);
  await f.getByLabel("Name").fill(`Rahmen ${tag}`);
  await f.getByLabel("E-Mail").fill(`rahmen3-${tag}@example.com`);
  await f.getByLabel("Telefon").fill("+49 30 555 1234");
  await f.getByLabel("Beschreibe dein Unternehmen").fill("Eine Schreinerei in Leipzig");
  if (!javaScriptEnabled) {
    const payload = await solvedAltcha(baseURL as string);
    await f.locator("#contact-form").evaluate((form, value) => {
      const field = document.createElement("input");
      field.type = "hidden";
      field.name = "altcha";
      field.value = value;
      form.append(field);
    }, payload);
  }
  await f.getByRole("button", { name: "Anfrage senden" }).click();
  await expect.soft(f.getByTestId("submission-success")).toBeVisible({ timeout: 30_000 });
  await page.goto("/admin/requests");
  if (javaScriptEnabled) await waitForHydration(page);
  const row = page.getByText(`Rahmen ${tag}`).first();
  await row.scrollIntoViewIfNeeded().catch(() => {});
  await page.screenshot({ path: testInfo.outputPath("55-admin-requests.png") });
  const text = await page.locator("main").innerText();
  const i = text.indexOf(`Rahmen ${tag}`);
  console.log("REQUESTS row:", text.slice(Math.max(0, i - 50), i + 300).replace(/\n/g, " | "));
  if (javaScriptEnabled) await axe(page, "admin requests");
  await visitor.context().close();
});

test("walk 4: which field is dirty on load @js-only", async ({ page, loginAsNew }) => {
  await loginAsNew(page);
  const ssr = await (await page.request.get("/admin/settings")).text();
  await page.goto("/admin/settings");
  await waitForHydration(page);
  const diff = await page.evaluate((html) => {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const pick = (root: Document) => {
      const form = [...root.querySelectorAll("form")].find((f) =>
        f.textContent?.includes("Konfiguration speichern"),
      ) as HTMLFormElement;
      return form;
    };
    const live = pick(document);
    const a = new URLSearchParams(new FormData(live) as unknown as string[][]);
    const sform = pick(doc);
    // FormData on a parsed doc works for inputs too.
    const b = new URLSearchParams(new FormData(sform) as unknown as string[][]);
    const keys = new Set([...a.keys(), ...b.keys()]);
    const out: string[] = [];
    for (const k of keys)
      if (a.getAll(k).join("|") !== b.getAll(k).join("|"))
        out.push(
          `${k}: live=${a.getAll(k).join("|").slice(0, 60)} ssr=${b.getAll(k).join("|").slice(0, 60)}`,
        );
    return out;
  }, ssr);
  console.log("DIRTY DIFF:", JSON.stringify(diff, null, 1));
});
