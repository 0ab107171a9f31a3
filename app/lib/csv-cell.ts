/**
 * A spreadsheet cell that cannot start a formula (CSV injection): text starting with `=`, `@`, a
 * tab or CR, or `+`/`-` not followed by a digit gets a leading apostrophe. Phone numbers such as
 * `+49 30 …` and negative numbers stay as they are.
 */
export function neutraliseCell(value: string): string {
  if (/^[=@\t\r]/.test(value) || /^[+-](?!\d)/.test(value)) return `'${value}`;
  return value;
}
