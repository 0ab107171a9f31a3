/** The no-JS confirmation step of destructive actions (wire type shared by server and page). */

/** What `requireConfirmation` returns from an action when `confirmed=1` is missing. */
export type ConfirmationStepData = {
  confirmation: {
    title: string;
    message: string;
    confirmLabel: string;
    fields: Record<string, string>;
  };
};

export function isConfirmationStep(value: unknown): value is ConfirmationStepData {
  const c = (value as { confirmation?: ConfirmationStepData["confirmation"] } | null)?.confirmation;
  return (
    typeof c === "object" &&
    c !== null &&
    typeof c.message === "string" &&
    typeof c.fields === "object" &&
    c.fields !== null
  );
}
