import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/components/ui/use-hydrated";
import { formatFileSize } from "~/lib/format";
import {
  checkSelection,
  UPLOAD_ERROR_HEADING,
  type UploadLimits,
  uploadHint,
} from "~/lib/upload-rules";
import { ATTACHMENTS_ID, fileInputClass } from "./contact-fields";

const labelClass = "mb-1 block text-sm font-medium text-slate-700 dark:text-slate-200";

/**
 * File attachments. Without JS a plain multiple file input; with JS a list with sizes and remove
 * buttons, checked on selection with the server's messages (a failing selection adds no file).
 * The selected files stay in the real input (synced), so the form data carries them.
 */
export function UploadWidget({
  limits,
  serverErrors,
  resetKey,
}: {
  limits: UploadLimits;
  serverErrors?: string[];
  /** Changing it empties the selection (reset from outside). */
  resetKey: number;
}) {
  const hydrated = useHydrated();
  const inputRef = useRef<HTMLInputElement>(null);
  const [files, setFiles] = useState<File[]>([]);
  const [errors, setErrors] = useState<string[]>([]);
  const [lastReset, setLastReset] = useState(resetKey);
  if (lastReset !== resetKey) {
    setLastReset(resetKey);
    setFiles([]);
    setErrors([]);
  }
  useEffect(() => {
    if (resetKey && inputRef.current) inputRef.current.value = "";
  }, [resetKey]);
  // Files picked before the page hydrated (on the first interaction, ADR 170) join the list once,
  // checked like a selection made with JS.
  const adopted = useRef(false);
  useEffect(() => {
    if (adopted.current) return;
    adopted.current = true;
    const picked = Array.from(inputRef.current?.files ?? []);
    if (!picked.length) return;
    const problems = checkSelection([], picked, limits);
    if (problems.length) {
      setErrors(problems);
      if (inputRef.current) inputRef.current.value = "";
    } else setFiles(picked);
  }, [limits]);

  const sync = (list: File[]) => {
    const transfer = new DataTransfer();
    for (const f of list) transfer.items.add(f);
    if (inputRef.current) inputRef.current.files = transfer.files;
  };
  const shownErrors = errors.length ? errors : (serverErrors ?? []);
  const accept = limits.extensions.map((e) => `.${e}`).join(",");

  return (
    <div>
      <label htmlFor={ATTACHMENTS_ID} className={labelClass}>
        Dateien anhängen (optional)
      </label>
      <input
        ref={inputRef}
        id={ATTACHMENTS_ID}
        type="file"
        name="attachments"
        multiple
        accept={accept}
        aria-describedby="contact-attachments-hint"
        className={fileInputClass}
        onChange={(event) => {
          if (!hydrated) return;
          const added = Array.from(event.currentTarget.files ?? []);
          const problems = checkSelection(files, added, limits);
          if (problems.length) {
            setErrors(problems);
            sync(files);
            return;
          }
          const next = [...files, ...added];
          setErrors([]);
          setFiles(next);
          sync(next);
        }}
      />
      <p id="contact-attachments-hint" className="mt-1 text-xs text-slate-500 dark:text-slate-400">
        {uploadHint(limits)}
      </p>
      {hydrated && files.length ? (
        <ul
          className="mt-2 divide-y divide-slate-200 rounded-lg border border-slate-200 text-sm dark:divide-slate-800 dark:border-slate-800"
          aria-label="Ausgewählte Dateien"
        >
          {files.map((file, index) => (
            <li
              key={`${file.name}-${file.size}-${file.lastModified}`}
              className="flex items-center justify-between gap-2 px-3 py-2"
            >
              <span className="min-w-0 truncate">
                {file.name}{" "}
                <span className="text-slate-500 dark:text-slate-400">
                  ({formatFileSize(file.size)})
                </span>
              </span>
              <button
                type="button"
                className="rounded px-2 py-1 text-red-700 hover:bg-red-50 dark:text-red-300 dark:hover:bg-red-950"
                aria-label={`${file.name} entfernen`}
                onClick={() => {
                  const next = files.filter((_, i) => i !== index);
                  setFiles(next);
                  setErrors([]);
                  sync(next);
                }}
              >
                Entfernen
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {shownErrors.length ? (
        <div
          role="alert"
          className="mt-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200"
        >
          <p className="font-semibold">{UPLOAD_ERROR_HEADING}</p>
          <ul className="list-inside list-disc">
            {shownErrors.map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
