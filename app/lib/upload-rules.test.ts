import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIGURATION } from "./configuration";
import { checkSelection, extensionOf, uploadLimits } from "./upload-rules";

const limits = uploadLimits(DEFAULT_CONFIGURATION.uploadSettings);
const MB = 1024 * 1024;

describe("upload rules", () => {
  it("reads extensions case-insensitively", () => {
    expect(extensionOf("Angebot.PDF")).toBe("pdf");
    expect(extensionOf("ohne-endung")).toBe("");
    expect(extensionOf(".bashrc")).toBe("");
  });

  it("accepts a valid selection", () => {
    expect(checkSelection([], [{ name: "a.png", size: MB }], limits)).toEqual([]);
  });

  it("reports every rule with the spec's messages, counting files already selected", () => {
    const existing = Array.from({ length: 4 }, (_, i) => ({ name: `${i}.pdf`, size: 9 * MB }));
    const errors = checkSelection(
      existing,
      [
        { name: "b.exe", size: 10 },
        { name: "c.pdf", size: 10.5 * MB },
      ],
      limits,
    );
    expect(errors).toEqual([
      "Zu viele Dateien. Maximum: 5 Dateien",
      "b.exe: Dateityp nicht erlaubt. Erlaubte Formate: jpg, jpeg, png, gif, webp, bmp, pdf, doc, docx, xls, xlsx, ppt, pptx, csv",
      "c.pdf: Datei zu groß (10,5 MB). Maximum: 10 MB",
    ]);
  });

  it("limits the total size", () => {
    const files = Array.from({ length: 5 }, (_, i) => ({ name: `${i}.pdf`, size: 10 * MB + 0 }));
    expect(
      checkSelection([], files.slice(0, 5), {
        ...limits,
        maxTotalBytes: 40 * MB,
        maxTotalSizeMB: 40,
      }),
    ).toEqual(["Gesamtgröße zu groß (50 MB). Maximum: 40 MB"]);
  });
});
