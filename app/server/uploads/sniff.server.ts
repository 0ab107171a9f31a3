import { createReadStream } from "node:fs";
import { fileTypeFromFile } from "file-type";

// The extension must agree with the content: what a received part really is.

const SNIFF_AUDIO = new Set(["webm", "ogg", "opus", "mp3", "m4a", "mp4", "wav", "aac", "flac"]);
/** Extensions the sniffed content must agree with (csv/plain text: checked as text). */
const SNIFFED_EXTENSIONS: Record<string, string[]> = {
  jpg: ["jpg"],
  jpeg: ["jpg"],
  png: ["png"],
  gif: ["gif"],
  webp: ["webp"],
  bmp: ["bmp"],
  pdf: ["pdf"],
  doc: ["cfb"],
  xls: ["cfb"],
  ppt: ["cfb"],
  docx: ["docx", "zip"],
  xlsx: ["xlsx", "zip"],
  pptx: ["pptx", "zip"],
};
const MIME_BY_EXTENSION: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  gif: "image/gif",
  webp: "image/webp",
  bmp: "image/bmp",
  pdf: "application/pdf",
  doc: "application/msword",
  xls: "application/vnd.ms-excel",
  ppt: "application/vnd.ms-powerpoint",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  pptx: "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  csv: "text/csv",
};

/** A received part to check: its form field, declared extension and the temp file it went to. */
export type SniffTarget = { field: "attachments" | "audio"; ext: string; tempPath: string | null };

/** The part's real MIME type, or null when its content does not match what it claims. */
export async function sniff(entry: SniffTarget): Promise<string | null> {
  if (!entry.tempPath) return null;
  const detected = await fileTypeFromFile(entry.tempPath);
  if (entry.field === "audio") {
    if (!detected || !SNIFF_AUDIO.has(detected.ext)) return null;
    return detected.ext === "webm" ? "audio/webm" : detected.mime.replace(/^video\//, "audio/");
  }
  if (entry.ext === "csv") {
    if (detected) return null;
    return (await looksLikeText(entry.tempPath)) ? "text/csv" : null;
  }
  const expected = SNIFFED_EXTENSIONS[entry.ext];
  if (!detected || !expected?.includes(detected.ext)) return null;
  return MIME_BY_EXTENSION[entry.ext] ?? detected.mime;
}

/** Plain text: no NUL and (almost) no control characters in the first 64 KB. */
async function looksLikeText(file: string): Promise<boolean> {
  const stream = createReadStream(file, { start: 0, end: 64 * 1024 - 1 });
  let suspicious = 0;
  let seen = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    for (const byte of chunk) {
      seen += 1;
      if (byte === 0) return false;
      if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) {
        suspicious += 1;
      }
    }
  }
  return seen > 0 && suspicious / seen < 0.01;
}

/** The file extension for a stored recording of this MIME type. */
export function audioExtension(mime: string) {
  const sub = mime.split("/")[1]?.split(";")[0] ?? "";
  return /^[a-z0-9]{2,5}$/.test(sub) ? sub : "audio";
}
