import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIGURATION, UploadSettingsSchema } from "./configuration";
import { checkSelection, extensionOf, uploadHint, uploadLimits } from "./upload-rules";

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

describe("contradictory upload limits (QA)", () => {
  it("clamps per file to the total: 0 / 30 / 5 saves as 1 file, 10 MB, 10 MB", () => {
    const parsed = UploadSettingsSchema.parse({
      maxFilesPerRequest: "0",
      maxFileSizeMB: "30",
      maxTotalSizeMB: "5",
    });
    expect(parsed).toMatchObject({ maxFilesPerRequest: 1, maxFileSizeMB: 10, maxTotalSizeMB: 10 });
    // Consistent limits stay as they are.
    expect(
      UploadSettingsSchema.parse({ maxFilesPerRequest: 3, maxFileSizeMB: 20, maxTotalSizeMB: 40 }),
    ).toMatchObject({ maxFilesPerRequest: 3, maxFileSizeMB: 20, maxTotalSizeMB: 40 });
  });

  it("the hint says '1 Datei' in the singular, 'Bis zu n Dateien' otherwise", () => {
    const base = uploadLimits(DEFAULT_CONFIGURATION.uploadSettings);
    expect(uploadHint({ ...base, maxFiles: 1, maxFileSizeMB: 10 })).toMatch(
      /^1 Datei, bis zu 10 MB\. Erlaubt: /,
    );
    expect(uploadHint({ ...base, maxFiles: 5, maxFileSizeMB: 10, maxTotalSizeMB: 50 })).toMatch(
      /^Bis zu 5 Dateien, je 10 MB, insgesamt 50 MB\. Erlaubt: /,
    );
  });
});
