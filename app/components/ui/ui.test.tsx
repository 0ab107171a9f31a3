import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ToastMessage } from "~/lib/toast";
import { CheckboxGroup, plainOptions } from "./checkbox-group";
import { DEFAULT_TITLES, Modal } from "./modal";
import { HiddenFields } from "./post-button";
import { linedRowClass, Table, TableHead } from "./table";
import { TOAST_LIMIT, ToastProvider, withToast } from "./toast";

describe("Modal shell (server markup)", () => {
  it("is an aria-modal dialog labelled by its title at z-index 50", () => {
    const html = renderToStaticMarkup(
      <Modal
        open
        onClose={() => {}}
        title="Termin buchen"
        description="Für: Erika"
        role="alertdialog"
      >
        <p>Inhalt</p>
      </Modal>,
    );
    expect(html).toContain('role="alertdialog"');
    expect(html).toContain('aria-modal="true"');
    expect(html).toContain("z-index:50");
    const labelledBy = html.match(/aria-labelledby="([^"]+)"/)?.[1];
    expect(html).toMatch(new RegExp(`<h2 id="${labelledBy}"[^>]*>Termin buchen</h2>`));
    const describedBy = html.match(/aria-describedby="([^"]+)"/)?.[1];
    expect(html).toMatch(new RegExp(`id="${describedBy}"[^>]*>Für: Erika`));
    expect(html).toContain('aria-label="Schließen"');
  });

  it("renders nothing when closed", () => {
    expect(renderToStaticMarkup(<Modal open={false} onClose={() => {}} title="X" />)).toBe("");
  });

  it("has the spec's default titles", () => {
    expect(DEFAULT_TITLES).toEqual({
      success: "Erfolgreich",
      error: "Fehler",
      confirm: "Bestätigung",
      info: "Information",
    });
  });
});

describe("ToastProvider (server markup)", () => {
  it("renders the flash toast in a polite live region, dismissible without JS", () => {
    const html = renderToStaticMarkup(
      <ToastProvider serverToast={{ id: "abc", type: "error", message: "Fehler beim Löschen!" }}>
        <main />
      </ToastProvider>,
    );
    expect(html).toContain('aria-live="polite"');
    expect(html).toContain('data-toast="error"');
    expect(html).toContain("Fehler beim Löschen!");
    // CSS-only dismissal: a checkbox and its label.
    expect(html).toMatch(/<input id="toast-abc" type="checkbox"[^>]*aria-label="Schließen"/);
    expect(html).toContain('for="toast-abc"');
    expect(html).not.toContain("data-hydrated");
  });

  it("renders an empty region without a flash toast", () => {
    const html = renderToStaticMarkup(
      <ToastProvider>
        <main />
      </ToastProvider>,
    );
    expect(html).not.toContain("data-toast");
  });

  it("never piles up: a repeat replaces its copy, a success ends earlier errors and an error earlier successes, at most three", () => {
    const error = { id: "e1", type: "error" as const, message: "Nicht gespeichert." };
    const again = withToast([error], { ...error, id: "e2" });
    expect(again.map((t) => t.id)).toEqual(["e2"]);
    const copied = { id: "i1", type: "info" as const, message: "Kopiert" };
    const saved = withToast([error, copied], { id: "s1", type: "success", message: "Gespeichert" });
    expect(saved.map((t) => t.id)).toEqual(["i1", "s1"]);
    const refused = withToast(saved, { ...error, id: "e3" });
    expect(refused.map((t) => t.id)).toEqual(["i1", "e3"]);
    let list: ToastMessage[] = [error];
    for (let n = 0; n < 5; n++)
      list = withToast(list, { id: `i${n}`, type: "info", message: `Hinweis ${n}` });
    expect(list).toHaveLength(TOAST_LIMIT);
    expect(list.map((t) => t.id)).toEqual(["i2", "i3", "i4"]);
  });
});

describe("TableHead", () => {
  it("renders one column header per label, in order, with the given classes", () => {
    const html = renderToStaticMarkup(
      <table>
        <TableHead columns={["Nr.", "Datum"]} className="head" cellClassName="cell" />
      </table>,
    );
    expect(html).toBe(
      '<table><thead class="head"><tr><th scope="col" class="cell">Nr.</th><th scope="col" class="cell">Datum</th></tr></thead></table>',
    );
  });
});

describe("Table", () => {
  it("puts the look's classes on table, header and body, the rows as children", () => {
    const html = renderToStaticMarkup(
      <Table look="lined" className="mt-6" columns={["Wer"]} cellClassName="cell">
        <tr className={linedRowClass}>
          <td>Anna</td>
        </tr>
      </Table>,
    );
    expect(html).toBe(
      '<table class="w-full text-left text-sm mt-6"><thead class="border-b border-slate-200 text-slate-600 dark:border-slate-800 dark:text-slate-400"><tr><th scope="col" class="cell">Wer</th></tr></thead><tbody><tr class="border-b border-slate-100 align-top dark:border-slate-800"><td>Anna</td></tr></tbody></table>',
    );
  });
});

describe("HiddenFields", () => {
  it("renders one hidden input per field, numbers as text", () => {
    expect(renderToStaticMarkup(<HiddenFields fields={{ intent: "toggle", id: 7 }} />)).toBe(
      '<input type="hidden" name="intent" value="toggle"/><input type="hidden" name="id" value="7"/>',
    );
  });
});

describe("CheckboxGroup", () => {
  it("posts each option under one name, checked as given, inside a labelled fieldset", () => {
    const html = renderToStaticMarkup(
      <CheckboxGroup
        legend="Typen"
        name="imageType"
        options={plainOptions(["jpg", "png"], ["png"])}
      />,
    );
    expect(html).toContain("<legend");
    expect(html).toContain(">Typen</legend>");
    expect(html).toMatch(/<input type="checkbox" name="imageType" value="jpg"\/>jpg<\/label>/);
    expect(html).toMatch(
      /<input type="checkbox" name="imageType" checked="" value="png"\/>png<\/label>/,
    );
  });
});
