/**
 * Keys that recognise the same person across requests (duplicate leads): the e-mail address
 * trimmed and lower-cased; the phone number as digits only, in international form for German
 * numbers ("0221 123456", "+49 221 123456" and "0049 221-123456" give "49221123456").
 * The SQL backfill in db/migrations/0008_contact_keys.sql computes the same.
 */
export function emailKey(email: string): string | null {
  const key = email.trim().toLowerCase();
  return key.includes("@") ? key : null;
}

export function phoneKey(phone: string): string | null {
  let digits = phone.replace(/\D/g, "");
  if (phone.trim().startsWith("+")) {
    // already international
  } else if (digits.startsWith("00")) digits = digits.slice(2);
  else if (digits.startsWith("0")) digits = `49${digits.slice(1)}`;
  return digits.length >= 5 ? digits : null;
}
