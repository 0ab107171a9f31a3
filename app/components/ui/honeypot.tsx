import { useId } from "react";
import { HONEYPOT_FIELD } from "~/lib/honeypot";

/** The honeypot field of a public form (see lib/honeypot.ts); the server refuses it filled. */
export function Honeypot({ id }: { id?: string }) {
  const generated = useId();
  const inputId = id ?? `${generated}-website`;
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={inputId}>Website (bitte leer lassen)</label>
      <input id={inputId} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
    </div>
  );
}
