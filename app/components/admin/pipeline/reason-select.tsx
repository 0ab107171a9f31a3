import type { Ref } from "react";
import { inputClass } from "~/components/ui/field";

/** The reason for a stage that asks for one ("Verloren"): a required choice, none chosen at first. */
export function ReasonSelect({
  ref,
  id,
  reasons,
  name,
  autoFocus,
  className = "",
}: {
  ref: Ref<HTMLSelectElement>;
  id: string;
  reasons: string[];
  /** The form field (the board's dialog reads the value itself and posts it with the move). */
  name?: string;
  autoFocus?: boolean;
  /** More classes (e.g. a scroll margin when the select is the page's anchor). */
  className?: string;
}) {
  return (
    <select
      ref={ref}
      id={id}
      name={name}
      required
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
