import { buttonClass } from "~/components/ui/button";
import { ConfirmAction } from "~/components/ui/confirm-action";
import { formatAttachmentSize, formatDate } from "~/lib/format";
import type { RequestJson } from "~/lib/request-json";
import { useActionUrl } from "./detail-context";
import { FileIcon } from "./file-icon";

export function FilesSection({ request }: { request: RequestJson }) {
  // No row anchor here: without JS, deleting answers with the confirmation step at the page top.
  const action = useActionUrl();
  if (!request.attachments.length) {
    return <p className="text-sm text-slate-500 dark:text-slate-400">Keine Dateien angehängt.</p>;
  }
  return (
    <ul className="grid gap-3 sm:grid-cols-2">
      {request.attachments.map((file) => (
        <li
          key={file.id}
          className="flex items-start gap-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
        >
          <FileIcon name={file.originalName} />
          <div className="min-w-0 flex-1">
            <p className="truncate font-medium" title={file.originalName}>
              {file.originalName}
            </p>
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {formatAttachmentSize(file.size)} · hochgeladen am {formatDate(file.uploadedAt)}
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <a
                className={buttonClass("secondary", "sm")}
                href={`/api/uploads/${file.filename}`}
                target="_blank"
                rel="noreferrer"
              >
                Ansehen
              </a>
              <a
                className={buttonClass("secondary", "sm")}
                href={`/api/uploads/${file.filename}?download=1`}
                download={file.originalName}
              >
                Herunterladen
              </a>
              <ConfirmAction
                action={action}
                fields={{
                  intent: "delete-attachment",
                  id: String(request.id),
                  attachmentId: String(file.id),
                }}
                title="Anhang löschen"
                message={`Möchten Sie den Anhang „${file.originalName}“ wirklich löschen?`}
                label="Löschen"
                aria-label={`${file.originalName} löschen`}
              />
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}
