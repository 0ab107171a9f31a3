import { describe, expect, it } from "vitest";
import corpus from "../../tests/fixtures/script-free-challenge-corpus.json";
import { numberWord } from "./number-words";
import {
  ANSWER_MAX,
  answerMatches,
  answerOf,
  MAX_ATTEMPTS,
  makeQuestion,
  type Question,
  questionText,
  readAnswer,
} from "./script-free-challenge";

/** A small deterministic generator (mulberry32), so the distribution test is repeatable. */
function seeded(seed: number) {
  let t = seed;
  return (n: number) => {
    t += 0x6d2b79f5;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r ^= r + Math.imul(r ^ (r >>> 7), 61 | r);
    return Math.floor((((r ^ (r >>> 14)) >>> 0) / 4294967296) * n);
  };
}

describe("the question", () => {
  it("is written in words and asks a sum or a difference", () => {
    expect(questionText({ a: 7, b: 8, op: "plus" })).toBe("Wie viel ist sieben plus acht?");
    expect(questionText({ a: 21, b: 9, op: "minus" })).toBe(
      "Wie viel ist einundzwanzig minus neun?",
    );
    expect(numberWord(1)).toBe("eins");
    expect(numberWord(29)).toBe("neunundzwanzig");
  });

  it("answers are spread evenly over 1..20; the second number is never the answer", () => {
    const random = seeded(250_326);
    const counts = new Map<number, number>();
    const draws = 20_000;
    for (let i = 0; i < draws; i++) {
      const q = makeQuestion(random);
      const answer = answerOf(q);
      expect(answer).toBeGreaterThanOrEqual(1);
      expect(answer).toBeLessThanOrEqual(ANSWER_MAX);
      expect(q.a).toBeLessThanOrEqual(29);
      expect(q.b).not.toBe(answer);
      counts.set(answer, (counts.get(answer) ?? 0) + 1);
    }
    for (let k = 1; k <= ANSWER_MAX; k++) {
      const share = (counts.get(k) ?? 0) / draws;
      expect(share, `answer ${k}`).toBeGreaterThan(0.04);
      expect(share, `answer ${k}`).toBeLessThan(0.06);
    }
  });
});

describe("reading an answer", () => {
  it("takes the last number, in digits or German words", () => {
    expect(readAnswer("7")).toBe(7);
    expect(readAnswer("Sieben!")).toBe(7);
    expect(readAnswer("3 + 4 = 7")).toBe(7);
    expect(readAnswer("fuenfzehn")).toBe(15);
    expect(readAnswer("Zwölf.")).toBe(12);
    expect(readAnswer("keine Ahnung")).toBeNull();
    expect(readAnswer("7".padStart(61, " "))).toBeNull();
  });
});

type Entry = { question: Question; answer: string; meant: boolean };

/**
 * The corpus (tests/fixtures/script-free-challenge-corpus.json) and the rates ADR 326 states: a
 * change to the question or the reading of answers that moves them fails here.
 */
describe("the corpus of ADR 326", () => {
  const humans = corpus.humans as Entry[];

  it("accepts every answer a person meant as right, refuses every mistake", () => {
    const meant = humans.filter((h) => h.meant);
    const mistakes = humans.filter((h) => !h.meant);
    const wrongly = {
      refused: meant.filter((h) => !answerMatches(h.question, h.answer)).map((h) => h.answer),
      accepted: mistakes.filter((h) => answerMatches(h.question, h.answer)).map((h) => h.answer),
    };
    expect(wrongly).toEqual({ refused: [], accepted: [] });
    expect([meant.length, mistakes.length]).toEqual([46, 14]);
  });

  it("a form-filling bot is right once in twenty at best, never by sending the question back", () => {
    // Over the question's distribution (answers uniform over 1..20): a bot's chance per attempt.
    const chance = (answer: string) => {
      const n = readAnswer(answer);
      return n !== null && n >= 1 && n <= ANSWER_MAX ? 1 / ANSWER_MAX : 0;
    };
    const chances = corpus.bots.map(chance);
    const lucky = corpus.bots.filter((b) => chance(b) > 0);
    expect(lucky).toEqual([
      "-1",
      "3.14",
      "<script>alert(1)</script>",
      "' OR '1'='1",
      "1; DROP TABLE requests",
      "Wie viel ist drei plus vier?",
      "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20",
    ]);
    expect(Math.max(...chances)).toBe(0.05);
    const mean = chances.reduce((a, b) => a + b, 0) / chances.length;
    expect(mean).toBeCloseTo(7 / 53 / 20, 6);
    // Three attempts, each with a new question: at most 1 - 0.95³ ≈ 14.3 % for the luckiest bot.
    expect(1 - (1 - 0.05) ** MAX_ATTEMPTS).toBeCloseTo(0.142625, 6);
    // The question sent back as the answer is wrong for every question it could be.
    const random = seeded(7);
    for (let i = 0; i < 2_000; i++) {
      const q = makeQuestion(random);
      expect(answerMatches(q, questionText(q)), questionText(q)).toBe(false);
    }
  });
});
