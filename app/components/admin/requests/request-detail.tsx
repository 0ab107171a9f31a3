import { useRef, useState } from "react";
import { Link } from "react-router";
import { buttonClass } from "~/components/ui/button";
import { useHydrated } from "~/components/ui/use-hydrated";
import { useModalFocus } from "~/components/ui/use-modal-focus";
import { formatDateTime } from "~/lib/format";
import type { AdminRequestJson } from "~/lib/request-json";
import { PromiseDetails } from "../pipeline/promise-chips";
import { StageForm } from "../pipeline/stage-form";
import { TrialSection } from "../pipeline/trial-section";
import { AiToolsSection } from "./ai-tools-section";
import { AssignmentSection } from "./assignment-section";
import { CompanySection } from "./company-section";
import { CopyButton } from "./copy-button";
import { type DetailContext, type HeadingLevel, shareLink } from "./detail-context";
import { FilesSection } from "./files-section";
import { MessagesSection } from "./messages-section";
import { PreparationSection } from "./preparation-section";
import { RequestTextSection } from "./request-text-section";
import { StatusForm } from "./status-form";
import { WorkSection } from "./work-section";

export type { AdminOption, DetailContext } from "./detail-context";

export const DETAIL_TABS = [
  ["company", "Unternehmen"],
  ["request", "Anfrage"],
  ["files", "Dateien"],
  ["preparation", "Preparation"],
  ["ai", "AI Tools"],
  ["assignment", "Zuweisung"],
  // Not among the spec's tabs (README deviation): the follow-up and the team's notes (ADR 350).
  ["notes", "Notizen"],
] as const;
type DetailTab = (typeof DETAIL_TABS)[number][0];

function Section({
  tab,
  request,
  ctx,
  level = 4,
  fullScreen = false,
}: {
  tab: DetailTab;
  request: AdminRequestJson;
  ctx: DetailContext;
  /** The level of the section's own headings: 2 in the row's tabs (no heading above them). */
  level?: HeadingLevel;
  fullScreen?: boolean;
}) {
  switch (tab) {
    case "company":
      return <CompanySection request={request} />;
    case "request":
      return (
        <RequestTextSection
          request={request}
          summaryHeld={ctx.summaryHeld}
          transcriptionConfigured={ctx.transcriptionConfigured}
          level={level}
          fullScreen={fullScreen}
        />
      );
    case "files":
      return <FilesSection request={request} />;
    case "preparation":
      return <PreparationSection request={request} ctx={ctx} />;
    case "ai":
      return <AiToolsSection request={request} aiConfigured={ctx.aiConfigured} />;
    case "assignment":
      return <AssignmentSection request={request} ctx={ctx} />;
    case "notes":
      return <WorkSection request={request} ctx={ctx} level={level} fullScreen={fullScreen} />;
  }
}

/** Row detail: tabs with JS; without JS every section stacked under its heading. */
export function RequestTabs({ request, ctx }: { request: AdminRequestJson; ctx: DetailContext }) {
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
        <Section tab={active} request={request} ctx={ctx} level={2} />
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
  request: AdminRequestJson;
  ctx: DetailContext;
  closeHref: string;
  /** Shown above the sections (e.g. the no-JS confirmation step). */
  children?: React.ReactNode;
}) {
  const hydrated = useHydrated();
  const dialogRef = useRef<HTMLDivElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  // With JS a real modal (shared with the Modal shell): focus on the heading, Tab stays inside, the
  // page behind is inert, Escape closes (the link, so the URL loses requestId). Without JS the
  // same markup is a page section with a "Schließen" link.
  useModalFocus(hydrated, dialogRef, {
    onCancel: () => document.getElementById("fullscreen-close")?.click(),
    initialFocusRef: titleRef,
    inert: true,
    // Opened with the page (?requestId= loaded directly): back to its row's "Vollbild" link, or
    // to the page's heading when the row is not on this page.
    returnFocus: () =>
      document.querySelector<HTMLElement>(
        `[data-request-id="${request.id}"] [data-fullscreen-link]`,
      ) ?? document.querySelector<HTMLElement>("main h1"),
  });
  const id = String(request.id).padStart(4, "0");
  return (
    <div
      ref={dialogRef}
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
            <h2
              ref={titleRef}
              id="fullscreen-title"
              tabIndex={-1}
              className="text-2xl font-bold outline-none"
            >
              {request.name}
            </h2>
            <p className="text-sm text-slate-500 dark:text-slate-400">
              Eingegangen am {formatDateTime(request.createdAt)}
            </p>
          </div>
          <div className="flex flex-wrap items-center gap-2">
            <StatusForm request={request} />
            <StageForm request={{ ...request, stage: request.stage.id }} pipeline={ctx.pipeline} />
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
        <section
          aria-labelledby="fullscreen-pipeline"
          className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
          data-pipeline-section=""
        >
          <h3 id="fullscreen-pipeline" className="mb-3 text-base font-semibold">
            Phase und Versprechen
          </h3>
          <p className="mb-3 text-sm">
            Phase: <strong data-stage-name="">{request.stage.name}</strong>
            {request.lostReason ? ` (Grund: ${request.lostReason})` : ""}
          </p>
          <PromiseDetails
            promises={request.promises}
            open={request.status !== "Done" && !request.archived}
            now={ctx.now}
          />
        </section>
        {DETAIL_TABS.map(([tab, label]) => (
          <section
            key={tab}
            aria-label={label}
            className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
          >
            <h3 className="mb-3 text-base font-semibold">{label}</h3>
            <Section tab={tab} request={request} ctx={ctx} fullScreen />
          </section>
        ))}
        <section
          id="fullscreen-trial"
          aria-labelledby="fullscreen-trial-title"
          className="scroll-mt-4 rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
        >
          <h3 id="fullscreen-trial-title" className="mb-3 text-base font-semibold">
            Testversion liefern
          </h3>
          <TrialSection request={request} mailConfigured={ctx.mailConfigured} />
        </section>
        <section
          aria-labelledby="fullscreen-messages"
          className="rounded-xl border border-slate-200 bg-white p-5 dark:border-slate-800 dark:bg-slate-900"
        >
          <h3 id="fullscreen-messages" className="mb-3 text-base font-semibold">
            Nachricht an den Kunden
          </h3>
          <MessagesSection
            request={request}
            mailConfigured={ctx.mailConfigured}
            repliesConfigured={ctx.repliesConfigured}
          />
        </section>
      </div>
    </div>
  );
}
