/**
 * The script-free challenge (ADR 326): a visitor whose form arrived without the proof of work (no
 * JavaScript, or a post before hydration) answers one short German arithmetic question on the
 * thank-you page; a right answer takes the request out of the quarantine. Pure: the question, its
 * wording and the reading of an answer; the server signs the question into a token.
 */

import { numberWord } from "./number-words";

export type Operation = "plus" | "minus";
export type Question = { a: number; b: number; op: Operation };

/** Answers range over 1..ANSWER_MAX, uniformly: a constant guess is right once in twenty. */
export const ANSWER_MAX = 20;
/** Wrong answers allowed per request (each gets a new question), then it waits for a human. */
export const MAX_ATTEMPTS = 3;
/** An answer is read only this long (a number, a word, a short sentence). */
export const ANSWER_MAX_LENGTH = 60;

export const CHALLENGE_FIELDS = { token: "pruefung", answer: "antwort", intent: "intent" } as const;
export const CHALLENGE_INTENT = "script-free-answer";
/** The answer form posts to its page with this query flag (the contact form posts without). */
export const ANSWER_PARAM = "antwort";

/** Every spelling a visitor may use for 0..39 (umlauts written out too, "ein"/"eine" for one). */
const WORDS: Map<string, number> = (() => {
  const map = new Map<string, number>();
  const add = (word: string, n: number) => {
    map.set(word, n);
    map.set(word.replaceAll("ü", "ue").replaceAll("ö", "oe").replaceAll("ß", "ss"), n);
  };
  for (let n = 0; n < 40; n++) add(numberWord(n), n);
  for (const [word, n] of [
    ["ein", 1],
    ["eine", 1],
    ["zwo", 2],
    ["siebenzehn", 17],
  ] as const)
    add(word, n);
  return map;
})();

export const answerOf = (q: Question) => (q.op === "plus" ? q.a + q.b : q.a - q.b);

/** "Wie viel ist sieben plus acht?" — words, so a screen reader reads it and a regex does not. */
export const questionText = (q: Question) =>
  `Wie viel ist ${numberWord(q.a)} ${q.op} ${numberWord(q.b)}?`;

/**
 * A new question; `random(n)` gives an integer in 0..n-1 (the server passes crypto's randomInt).
 * The answer is drawn first (uniform over 1..ANSWER_MAX), then a sum or a difference of two
 * numbers from 1 to 29 that gives it. The second number never equals the answer, so a bot that
 * sends the question back (its last number) is never right.
 */
export function makeQuestion(random: (n: number) => number): Question {
  const answer = 1 + random(ANSWER_MAX);
  if (answer >= 2 && random(2) === 0) {
    const a = 1 + random(answer - 1);
    return { a, b: answer - a, op: "plus" };
  }
  const choices = [1, 2, 3, 4, 5, 6, 7, 8, 9].filter((n) => n !== answer);
  const b = choices[random(choices.length)] as number;
  return { a: answer + b, b, op: "minus" };
}

/**
 * The number an answer gives: the last number in it, as digits or a German word ("7", "sieben",
 * "3 + 4 = 7", "Sieben."); null when it holds none or is too long to be an answer.
 */
export function readAnswer(text: string): number | null {
  if (text.length > ANSWER_MAX_LENGTH) return null;
  const tokens = text
    .normalize("NFKC")
    .toLowerCase()
    .match(/\d+|[a-zäöüß]+/g);
  let found: number | null = null;
  for (const token of tokens ?? []) {
    const n = /^\d+$/.test(token) ? Number(token) : WORDS.get(token);
    if (n !== undefined) found = n;
  }
  return found;
}

export const answerMatches = (q: Question, text: string) => readAnswer(text) === answerOf(q);

/** What the thank-you page shows about the challenge (a wire type, server → page). */
export type ScriptFreeCheckView =
  | { state: "ask" | "wrong"; token: string; question: string; attemptsLeft: number }
  | { state: "arrived" | "by-hand" };

/** The outcome in the answer's redirect (`ergebnis`): only a display hint, checked on the request. */
export const CHECK_RESULT = { arrived: "angekommen", wrong: "falsch", byHand: "von-hand" } as const;

export const CHALLENGE_TEXT = {
  heading: "Eine kurze Frage noch",
  intro:
    "Ohne JavaScript können wir nicht automatisch prüfen, ob hier ein Mensch schreibt. Beantworte bitte diese Frage – dann kommt deine Anfrage sofort bei uns an.",
  hint: "Als Zahl oder Wort, z. B. 12 oder zwölf.",
  submit: "Antwort senden",
  later: "Ohne Antwort sehen wir uns deine Anfrage von Hand an – das kann etwas dauern.",
  wrong: (left: number) =>
    `Das war leider nicht richtig. Hier ist eine neue Frage (${left === 1 ? "noch ein Versuch" : `noch ${left} Versuche`}).`,
  arrived: "Danke! Deine Anfrage ist jetzt bei uns angekommen.",
  byHand:
    "Deine Anfrage ist gespeichert. Wir sehen sie uns von Hand an und melden uns bei dir – das kann etwas dauern.",
} as const;
