// German number words, for texts read aloud: the challenge's question, the promises' days.

const UNITS = [
  "null",
  "eins",
  "zwei",
  "drei",
  "vier",
  "fünf",
  "sechs",
  "sieben",
  "acht",
  "neun",
  "zehn",
  "elf",
  "zwölf",
  "dreizehn",
  "vierzehn",
  "fünfzehn",
  "sechzehn",
  "siebzehn",
  "achtzehn",
  "neunzehn",
];

/** The German word of 0..39 ("sieben", "einundzwanzig", "dreißig"). */
export function numberWord(n: number): string {
  if (n < 20) return UNITS[n] as string;
  const tens = n < 30 ? "zwanzig" : "dreißig";
  const unit = n % 10;
  return unit === 0 ? tens : `${unit === 1 ? "ein" : UNITS[unit]}und${tens}`;
}
