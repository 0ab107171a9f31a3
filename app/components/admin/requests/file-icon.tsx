import type { ReactNode } from "react";

/** Icon by extension (spec §9): images, pdf, doc/docx, xls/xlsx, ppt/pptx, other. */
export function fileKind(name: string): "image" | "pdf" | "word" | "excel" | "powerpoint" | "file" {
  const ext = name.split(".").pop()?.toLowerCase() ?? "";
  if (["jpg", "jpeg", "png", "gif", "webp", "bmp"].includes(ext)) return "image";
  if (ext === "pdf") return "pdf";
  if (ext === "doc" || ext === "docx") return "word";
  if (ext === "xls" || ext === "xlsx" || ext === "csv") return "excel";
  if (ext === "ppt" || ext === "pptx") return "powerpoint";
  return "file";
}

const COLORS = {
  image: "text-emerald-600 bg-emerald-50 dark:bg-emerald-950 dark:text-emerald-300",
  pdf: "text-red-600 bg-red-50 dark:bg-red-950 dark:text-red-300",
  word: "text-blue-600 bg-blue-50 dark:bg-blue-950 dark:text-blue-300",
  excel: "text-green-700 bg-green-50 dark:bg-green-950 dark:text-green-300",
  powerpoint: "text-orange-600 bg-orange-50 dark:bg-orange-950 dark:text-orange-300",
  file: "text-slate-600 bg-slate-100 dark:bg-slate-800 dark:text-slate-300",
};
const LABELS = {
  image: "Bild",
  pdf: "PDF",
  word: "Word",
  excel: "Excel",
  powerpoint: "PowerPoint",
  file: "Datei",
};

export function FileIcon({ name }: { name: string }) {
  const kind = fileKind(name);
  return (
    <span
      role="img"
      aria-label={LABELS[kind]}
      data-kind={kind}
      className={`inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-lg ${COLORS[kind]}`}
    >
      {kind === "image" ? (
        <IconSvg>
          <rect x="3" y="3" width="18" height="18" rx="2" />
          <circle cx="9" cy="9" r="2" />
          <path d="m21 15-5-5L5 21" />
        </IconSvg>
      ) : (
        <IconSvg>
          <path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z" />
          <path d="M14 2v6h6" />
          {kind !== "file" ? (
            <text
              x="12"
              y="18"
              textAnchor="middle"
              fontSize="6"
              fill="currentColor"
              stroke="none"
              fontWeight="700"
            >
              {{ pdf: "PDF", word: "DOC", excel: "XLS", powerpoint: "PPT" }[kind]}
            </text>
          ) : null}
        </IconSvg>
      )}
    </span>
  );
}

/** The 24×24 outline frame both file icons draw in. */
function IconSvg({ children }: { children: ReactNode }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className="h-5 w-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}
