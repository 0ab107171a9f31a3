/**
 * A spreadsheet cell that cannot start a formula (CSV injection): text starting with `=`, `@`, a
 * tab or CR gets a leading apostrophe, and so does text starting with `+` or `-` unless the whole
 * cell is a number or a phone number (digits, spaces, `()./-`): `+49 30 …` and `-5` stay readable,
 * while `-1+cmd|…` or `+1+HYPERLINK(…)` (a formula to Excel) do not.
 */
export function neutraliseCell(value: string): string {
  if (/^[=@\t\r]/.test(value)) return `'${value}`;
  if (/^[+-]/.test(value) && !/^[+-][\d\s()./-]*$/.test(value)) return `'${value}`;
  return value;
}
