import type { UploadSettings } from "./configuration";
import { formatMegabytes } from "./format";

/** Upload limits in bytes, derived from the configuration's upload settings (no Zod: client-safe). */
export type UploadLimits = {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
  maxFileSizeMB: number;
  maxTotalSizeMB: number;
  extensions: string[];
};

const MB = 1024 * 1024;

export function uploadLimits(settings: UploadSettings): UploadLimits {
  return {
    maxFiles: settings.maxFilesPerRequest,
    maxFileBytes: settings.maxFileSizeMB * MB,
    maxTotalBytes: settings.maxTotalSizeMB * MB,
    maxFileSizeMB: settings.maxFileSizeMB,
    maxTotalSizeMB: settings.maxTotalSizeMB,
    extensions: [...settings.allowedImageTypes, ...settings.allowedDocumentTypes],
  };
}

/** The hint under the landing page's file input ("1 Datei" in the singular: no total then). */
export function uploadHint(limits: UploadLimits): string {
  const allowed = `Erlaubt: ${limits.extensions.join(", ")}.`;
  if (limits.maxFiles === 1) return `1 Datei, bis zu ${limits.maxFileSizeMB} MB. ${allowed}`;
  return `Bis zu ${limits.maxFiles} Dateien, je ${limits.maxFileSizeMB} MB, insgesamt ${limits.maxTotalSizeMB} MB. ${allowed}`;
}

export const UPLOAD_ERROR_HEADING = "Fehler beim Upload:";

export const uploadMessages = {
  tooMany: (max: number) => `Zu viele Dateien. Maximum: ${max} Dateien`,
  typeNotAllowed: (file: string, extensions: string[]) =>
    `${file}: Dateityp nicht erlaubt. Erlaubte Formate: ${extensions.join(", ")}`,
  fileTooLarge: (file: string, bytes: number, maxMB: number) =>
    `${file}: Datei zu groß (${formatMegabytes(bytes)} MB). Maximum: ${maxMB} MB`,
  totalTooLarge: (bytes: number, maxMB: number) =>
    `Gesamtgröße zu groß (${formatMegabytes(bytes)} MB). Maximum: ${maxMB} MB`,
};

/** Lower-case extension without the dot ("" when none). */
export function extensionOf(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : "";
}

type FileInfo = { name: string; size: number };

/**
 * Checks a selection against the limits, counting files already selected. Any error rejects the
 * whole new selection (the caller adds none of its files).
 */
export function checkSelection(
  existing: FileInfo[],
  added: FileInfo[],
  limits: UploadLimits,
): string[] {
  const errors: string[] = [];
  if (existing.length + added.length > limits.maxFiles) {
    errors.push(uploadMessages.tooMany(limits.maxFiles));
  }
  for (const file of added) {
    if (!limits.extensions.includes(extensionOf(file.name))) {
      errors.push(uploadMessages.typeNotAllowed(file.name, limits.extensions));
    } else if (file.size > limits.maxFileBytes) {
      errors.push(uploadMessages.fileTooLarge(file.name, file.size, limits.maxFileSizeMB));
    }
  }
  const total = [...existing, ...added].reduce((sum, f) => sum + f.size, 0);
  if (total > limits.maxTotalBytes) {
    errors.push(uploadMessages.totalTooLarge(total, limits.maxTotalSizeMB));
  }
  return errors;
}
