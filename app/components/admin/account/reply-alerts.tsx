import { Alert } from "~/components/ui/field";
import { FocusOnArrival } from "~/components/ui/focus-on-arrival";

/** A section's answer to its last post: the success and the refusal, focused as they arrive. */
export function ReplyAlerts({
  reply,
  className = "space-y-3",
}: {
  reply?: { message?: string; error?: string };
  className?: string;
}) {
  if (!reply?.message && !reply?.error) return null;
  return (
    <FocusOnArrival arrival={reply} className={className}>
      {reply.message ? <Alert tone="success">{reply.message}</Alert> : null}
      {reply.error ? <Alert>{reply.error}</Alert> : null}
    </FocusOnArrival>
  );
}
