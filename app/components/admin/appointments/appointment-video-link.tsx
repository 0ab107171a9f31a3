import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import type { AppointmentJson } from "~/lib/appointments";

/**
 * The demo's video link on its card (ADR 267): shown as a link, and for an upcoming built-in
 * booking a small form to set its own link (empty: the fixed room of the settings again). A real
 * form: works without JavaScript; the result comes back as a toast.
 */
export function AppointmentVideoLink({
  a,
  editable,
  mailed,
}: {
  a: AppointmentJson;
  editable: boolean;
  /** Whether a link set here reaches the visitor by mail (else only on their manage page). */
  mailed: boolean;
}) {
  if (a.provider !== "builtin" && !a.videoUrl) return null;
  const id = `video-url-${a.id}`;
  return (
    <div className="mt-3 space-y-2 text-sm">
      <p>
        <span className="font-medium">Videocall: </span>
        {a.videoUrl ? (
          <a
            href={a.videoUrl}
            target="_blank"
            rel="noreferrer"
            className="break-all text-indigo-700 underline dark:text-indigo-300"
          >
            {a.videoUrl}
          </a>
        ) : (
          <span className="text-slate-600 dark:text-slate-300">
            noch kein Link
            {editable
              ? mailed
                ? " – ein hier eingetragener Link geht dem Kunden per E-Mail zu."
                : " – ein hier eingetragener Link steht auf der Terminseite des Kunden; eine E-Mail geht nicht an ihn."
              : null}
          </span>
        )}
        {a.videoUrl && !a.ownVideoUrl ? (
          <span className="text-slate-600 dark:text-slate-300"> (fester Raum)</span>
        ) : null}
      </p>
      {editable ? (
        <Form method="post" className="flex flex-wrap items-end gap-2" preventScrollReset>
          <input type="hidden" name="intent" value="video-link" />
          <input type="hidden" name="id" value={a.id} />
          <div className="min-w-0 flex-1 basis-56">
            <label htmlFor={id} className="mb-1 block text-xs font-medium">
              Eigener Videolink für diesen Termin
            </label>
            <input
              id={id}
              name="videoUrl"
              type="url"
              inputMode="url"
              pattern="https://.+"
              title="Eine https-Adresse, z. B. https://meet.example.com/demo"
              placeholder="https://meet.example.com/demo"
              defaultValue={a.ownVideoUrl ? (a.videoUrl ?? "") : ""}
              className={inputClass}
            />
          </div>
          <Button type="submit" size="sm" variant="secondary">
            Videolink speichern
          </Button>
        </Form>
      ) : null}
    </div>
  );
}
