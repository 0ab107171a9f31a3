import type { Ref } from "react";
import { inputClass } from "~/components/ui/field";

/** The reason for a stage that asks for one ("Verloren"): a required choice, none chosen at first. */
export function ReasonSelect({
  ref,
  id,
  reasons,
  name,
  autoFocus,
  describedBy,
  className = "",
}: {
  ref: Ref<HTMLSelectElement>;
  id: string;
  reasons: string[];
  /** The form field (the board's dialog reads the value itself and posts it with the move). */
  name?: string;
  autoFocus?: boolean;
  /** The id of a text that explains the choice (aria-describedby). */
  describedBy?: string;
  /** More classes (e.g. a scroll margin when the select is the page's anchor). */
  className?: string;
}) {
  return (
    <select
      ref={ref}
      id={id}
      name={name}
      required
      aria-describedby={describedBy}
      defaultValue=""
      autoFocus={autoFocus}
      className={`${inputClass} w-full ${className}`}
    >
      <option value="" disabled>
        Bitte wählen …
      </option>
      {reasons.map((reason) => (
        <option key={reason} value={reason}>
          {reason}
        </option>
      ))}
    </select>
  );
}
