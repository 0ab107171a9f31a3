/**
 * A page's hidden yes/no field ("1"/"0") as the boolean its JSON twin sends, so both faces parse
 * with one schema (ADR 240); anything else is passed on for the schema to refuse.
 */
export function formFlag(value: unknown): unknown {
  if (value === "1") return true;
  if (value === "0") return false;
  return value ?? undefined;
}
