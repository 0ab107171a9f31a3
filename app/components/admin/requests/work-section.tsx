import type { AdminRequestJson } from "~/lib/request-json";
import { type DetailContext, type HeadingLevel, useActionUrl } from "./detail-context";
import { FollowUpSection } from "./follow-up-section";
import { NotesSection } from "./notes-section";

/**
 * The "Notizen" tab of a row and section of the full-screen view (ADRs 350, 351): the request's
 * follow-up and the team's notes. Without JS the forms post to the page with the block's anchor
 * (`#notizen` in the full-screen view), so the answer lands here again.
 */
export function WorkSection({
  request,
  ctx,
  level,
  fullScreen = false,
}: {
  request: AdminRequestJson;
  ctx: DetailContext;
  level: HeadingLevel;
  fullScreen?: boolean;
}) {
  const action = useActionUrl(request.id, fullScreen ? "notizen" : undefined);
  return (
    <div id={fullScreen ? "notizen" : undefined} className="scroll-mt-4 space-y-6">
      <FollowUpSection
        requestId={request.id}
        followUp={request.followUp ?? null}
        action={action}
        level={level}
        today={ctx.today}
      />
      <NotesSection
        requestId={request.id}
        notes={request.notes ?? []}
        ctx={ctx}
        action={action}
        level={level}
      />
    </div>
  );
}
