import { useEffect, useId, useState } from "react";
import { Link, useActionData, useFetcher, useLocation } from "react-router";
import { Button, buttonClass } from "~/components/ui/button";
import { ConfirmAction } from "~/components/ui/confirm-action";
import { Alert, inputClass } from "~/components/ui/field";
import { useHydrated } from "~/components/ui/use-hydrated";
import type { PreparationField } from "~/lib/configuration";
import { formatAttachmentSize, formatDate, formatDateTime, summaryOf } from "~/lib/format";
import type { RequestJson } from "~/lib/request-json";
import { REQUEST_STATUSES, STATUS_LABELS } from "~/lib/request-list";
import { AssignmentSection } from "./assignment-section";
import { CopyButton } from "./copy-button";
import { FileIcon } from "./file-icon";

export type AdminOption = { id: number; username: string; is_active: boolean };
export type DetailContext = {
  admins: AdminOption[];
  fields: PreparationField[];
  aiConfigured: boolean;
  origin: string;
};

/** The page URL the forms post to (keeps the list state and the open request). */
export function useActionUrl() {
  const location = useLocation();
  return `${location.pathname}${location.search}`;
}

export function shareLink(origin: string, id: number) {
  return `${origin}/admin/requests?requestId=${id}`;
}

export function StatusForm({ request }: { request: RequestJson }) {
  const fetcher = useFetcher();
  const hydrated = useHydrated();
  const action = useActionUrl();
  const pending = fetcher.formData?.get("status");
  const uid = useId();
  return (
    <fetcher.Form method="post" action={action} className="flex items-center gap-2">
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="id" value={request.id} />
      <label className="sr-only" htmlFor={`${uid}-status`}>
        Status von Anfrage {request.id}
      </label>
      <select
        id={`${uid}-status`}
        name="status"
        defaultValue={request.status}
        key={`${request.id}-${request.status}`}
        className={`${inputClass} w-auto py-1.5 text-sm`}
        onChange={(event) => {
          if (hydrated) fetcher.submit(event.currentTarget.form);
        }}
        disabled={fetcher.state !== "idle"}
      >
        {REQUEST_STATUSES.map((s) => (
          <option key={s} value={s}>
            {STATUS_LABELS[s]}
          </option>
        ))}
      </select>
      {hydrated ? (
        pending ? (
          <span className="text-xs text-slate-500 dark:text-slate-400">Speichert …</span>
        ) : null
      ) : (
        <Button type="submit" size="sm" variant="secondary">
          Status speichern
        </Button>
      )}
    </fetcher.Form>
  );
}

export function CompanySection({ request }: { request: RequestJson }) {
  return (
    <dl className="grid gap-3 text-sm sm:grid-cols-2">
      <div>
        <dt className="font-medium text-slate-500 dark:text-slate-400">Name</dt>
        <dd>{request.name}</dd>
      </div>
      <div>
        <dt className="font-medium text-slate-500 dark:text-slate-400">E-Mail</dt>
        <dd>
          <a
            className="text-indigo-700 underline dark:text-indigo-300"
            href={`mailto:${request.email}`}
          >
            {request.email}
          </a>
        </dd>
      </div>
      <div>
        <dt className="font-medium text-slate-500 dark:text-slate-400">Telefon</dt>
        <dd>
          <a
            className="text-indigo-700 underline dark:text-indigo-300"
            href={`tel:${request.phone.replace(/[^\d+]/g, "")}`}
          >
            {request.phone}
          </a>
        </dd>
      </div>
      {request.affiliateCode ? (
        <div>
          <dt className="font-medium text-slate-500 dark:text-slate-400">Affiliate-Code</dt>
          <dd className="font-mono">{request.affiliateCode}</dd>
        </div>
      ) : null}
      <div className="sm:col-span-2">
        <dt className="font-medium text-slate-500 dark:text-slate-400">Unternehmen</dt>
        <dd className="whitespace-pre-wrap">{request.companyDescription}</dd>
      </div>
    </dl>
  );
}

export function RequestTextSection({ request }: { request: RequestJson }) {
  return (
    <div className="space-y-3 text-sm">
      {request.summary ? (
        <p className="rounded-lg bg-indigo-50 p-3 text-indigo-950 dark:bg-indigo-950 dark:text-indigo-100">
          <span className="font-semibold">Zusammenfassung: </span>
          {request.summary}
        </p>
      ) : null}
      <div>
        <h4 className="font-medium text-slate-500 dark:text-slate-400">Ursprüngliche Anfrage</h4>
        <p className="whitespace-pre-wrap">
          {request.description || "Keine Projektbeschreibung angegeben."}
        </p>
      </div>
      {request.audioPath ? (
        <div>
          <h4 className="mb-1 font-medium text-slate-500 dark:text-slate-400">Sprachnachricht</h4>
          {/* biome-ignore lint/a11y/useMediaCaption: voice messages of visitors have no captions */}
          <audio
            controls
            preload="metadata"
            src={`/api/audio/${request.audioPath}`}
            className="w-full max-w-md"
          >
            Dein Browser unterstützt keine Audio-Wiedergabe.
          </audio>
        </div>
      ) : null}
    </div>
  );
}

export function FilesSection({ request }: { request: RequestJson }) {
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

function fieldValue(data: Record<string, string>, name: string) {
  const key = Object.keys(data).find((k) => k.toLowerCase() === name.toLowerCase());
  return key ? (data[key] ?? "") : "";
}

export function PreparationSection({ request, ctx }: { request: RequestJson; ctx: DetailContext }) {
  const save = useFetcher();
  const auto = useFetcher();
  const uid = useId();
  const action = useActionUrl();
  if (!ctx.fields.length) {
    return <Alert tone="info">Keine Preparation-Felder in der Konfiguration gefunden!</Alert>;
  }
  return (
    <div className="space-y-4">
      <save.Form method="post" action={action} className="space-y-3" key={request.updatedAt}>
        <input type="hidden" name="intent" value="preparation" />
        <input type="hidden" name="id" value={request.id} />
        <input type="hidden" name="updatedAt" value={request.updatedAt} />
        {ctx.fields.map((field) => (
          <div key={field.id}>
            <label htmlFor={`${uid}-${field.name}`} className="mb-1 block text-sm font-medium">
              {field.label}
            </label>
            <textarea
              id={`${uid}-${field.name}`}
              name={`prep.${field.name}`}
              rows={3}
              placeholder={field.placeholder}
              defaultValue={fieldValue(request.preparationData, field.name)}
              className={inputClass}
            />
          </div>
        ))}
        <Button type="submit" disabled={save.state !== "idle"}>
          {save.state !== "idle" ? "Speichert …" : "Vorbereitung speichern"}
        </Button>
      </save.Form>
      <auto.Form method="post" action={action} className="flex flex-wrap items-center gap-3">
        <input type="hidden" name="intent" value="auto-prepare" />
        <input type="hidden" name="id" value={request.id} />
        <Button type="submit" variant="secondary" disabled={auto.state !== "idle"}>
          {auto.state !== "idle" ? "KI bereitet vor …" : "Automatisch vorbereiten"}
        </Button>
        {auto.state !== "idle" ? (
          <span role="status" className="text-sm text-slate-500 dark:text-slate-400">
            Die KI füllt die leeren Felder – das kann bis zu einigen Minuten dauern.
          </span>
        ) : (
          <span className="text-xs text-slate-500 dark:text-slate-400">
            Füllt nur leere Felder; Ihr Text bleibt erhalten.
            {ctx.aiConfigured ? "" : " (KI nicht eingerichtet)"}
          </span>
        )}
      </auto.Form>
    </div>
  );
}

type PromptResult = { intent?: string; id?: number; prompt?: string; error?: string };

export function AiToolsSection({ request }: { request: RequestJson }) {
  const fetcher = useFetcher<PromptResult>();
  const actionData = useActionData() as PromptResult | undefined;
  const action = useActionUrl();
  const fromPage =
    actionData?.intent === "prompt" && actionData.id === request.id ? actionData : undefined;
  const result = fetcher.data ?? fromPage;
  const uid = useId();
  return (
    <div className="space-y-3">
      <fetcher.Form method="post" action={action}>
        <input type="hidden" name="intent" value="prompt" />
        <input type="hidden" name="id" value={request.id} />
        <Button type="submit" variant="secondary" disabled={fetcher.state !== "idle"}>
          {fetcher.state !== "idle"
            ? "Prompt wird erstellt …"
            : "Prompt für KI-Coding-Assistent erstellen"}
        </Button>
      </fetcher.Form>
      {result?.error ? <Alert>{result.error}</Alert> : null}
      {result?.prompt ? (
        <div className="space-y-2">
          <label htmlFor={`${uid}-prompt`} className="block text-sm font-medium">
            Prompt
          </label>
          <textarea
            id={`${uid}-prompt`}
            readOnly
            rows={12}
            value={result.prompt}
            className={`${inputClass} font-mono text-xs`}
          />
          <CopyButton
            text={result.prompt}
            label="Prompt kopieren"
            success="Prompt in die Zwischenablage kopiert!"
            failure="Fehler beim Kopieren in die Zwischenablage!"
          />
        </div>
      ) : null}
    </div>
  );
}

export const DETAIL_TABS = [
  ["company", "Unternehmen"],
  ["request", "Anfrage"],
  ["files", "Dateien"],
  ["preparation", "Preparation"],
  ["ai", "AI Tools"],
  ["assignment", "Zuweisung"],
] as const;
type DetailTab = (typeof DETAIL_TABS)[number][0];

function Section({
  tab,
  request,
  ctx,
}: {
  tab: DetailTab;
  request: RequestJson;
  ctx: DetailContext;
}) {
  switch (tab) {
    case "company":
      return <CompanySection request={request} />;
    case "request":
      return <RequestTextSection request={request} />;
    case "files":
      return <FilesSection request={request} />;
    case "preparation":
      return <PreparationSection request={request} ctx={ctx} />;
    case "ai":
      return <AiToolsSection request={request} />;
    case "assignment":
      return <AssignmentSection request={request} ctx={ctx} />;
  }
}

/** Row detail: tabs with JS; without JS every section stacked under its heading. */
export function RequestTabs({ request, ctx }: { request: RequestJson; ctx: DetailContext }) {
  const hydrated = useHydrated();
  const [active, setActive] = useState<DetailTab>("company");
  if (!hydrated) {
    return (
      <div className="space-y-6">
        {DETAIL_TABS.map(([tab, label]) => (
          <section key={tab} aria-label={label}>
            <h3 className="mb-2 text-sm font-semibold uppercase tracking-wide text-slate-500 dark:text-slate-400">
              {label}
            </h3>
            <Section tab={tab} request={request} ctx={ctx} />
          </section>
        ))}
      </div>
    );
  }
  return (
    <div>
      <div
        role="tablist"
        aria-label={`Details zu Anfrage ${request.id}`}
        className="mb-4 flex flex-wrap gap-1 border-b border-slate-200 dark:border-slate-700"
      >
        {DETAIL_TABS.map(([tab, label]) => (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`tab-${request.id}-${tab}`}
            aria-selected={active === tab}
            aria-controls={`panel-${request.id}-${tab}`}
            onClick={() => setActive(tab)}
            className={`-mb-px border-b-2 px-3 py-2 text-sm font-medium ${active === tab ? "border-indigo-600 text-indigo-700 dark:text-indigo-300" : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-300"}`}
          >
            {label}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`panel-${request.id}-${active}`}
        aria-labelledby={`tab-${request.id}-${active}`}
      >
        <Section tab={active} request={request} ctx={ctx} />
      </div>
    </div>
  );
}

/** The full-screen view of one request (?requestId=); closing removes the parameter. */
export function FullScreenRequest({
  request,
  ctx,
  closeHref,
  children,
}: {
  request: RequestJson;
  ctx: DetailContext;
  closeHref: string;
  /** Shown above the sections (e.g. the no-JS confirmation step). */
  children?: React.ReactNode;
}) {
  const hydrated = useHydrated();
  useEffect(() => {
    if (!hydrated) return;
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (
        event.key !== "Escape" ||
        target?.closest(
          "input, textarea, select, [role=dialog][aria-modal=true]:not([data-fullscreen])",
        )
      )
        return;
      document.getElementById("fullscreen-close")?.click();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [hydrated]);
  const id = String(request.id).padStart(4, "0");
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="fullscreen-title"
      data-fullscreen=""
      className="fixed inset-0 z-40 overflow-y-auto bg-slate-50 dark:bg-slate-950"
    >
      <div className="mx-auto max-w-5xl space-y-6 px-4 py-6 sm:px-6">
        <header className="flex flex-wrap items-start justify-between gap-4">
          <div>
            <p className="font-mono text-sm text-slate-500 dark:text-slate-400">#{id}</p>
            <h2 id="fullscreen-title" className="text-2xl font-bold">
              {request.name}
            </h2>
            <p className="text-sm text-slate-500 dark:text-slate-400">
              Eingegangen am {formatDateTime(request.createdAt)}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <StatusForm request={request} />
            <CopyButton
              text={shareLink(ctx.origin, request.id)}
              label="Link kopieren"
              success="Link in die Zwischenablage kopiert!"
            />
            <Link id="fullscreen-close" to={closeHref} className={buttonClass("secondary", "sm")}>
              Schließen
            </Link>
          </div>
        </header>
        {children}
        {DETAIL_TABS.map(([tab, label]) => (
          <section
            key={tab}
            aria-label={label}
            className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
          >
            <h3 className="mb-3 text-base font-semibold">{label}</h3>
            <Section tab={tab} request={request} ctx={ctx} />
          </section>
        ))}
      </div>
    </div>
  );
}

export function summaryLine(request: RequestJson) {
  const text = summaryOf(request);
  return text.length > 140 ? `${text.slice(0, 140)}…` : text;
}
