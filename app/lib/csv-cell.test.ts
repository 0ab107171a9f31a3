import { describe, expect, it } from "vitest";
import { neutraliseCell } from "./csv-cell";

describe("neutraliseCell", () => {
  it.each([
    ['=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\t=1+1", "'\t=1+1"],
    ["\r=1", "'\r=1"],
    ["+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"],
    ["-A1+B1", "'-A1+B1"],
    ["- Punkt", "'- Punkt"],
    ["-1+cmd|' /C calc'!A0", "'-1+cmd|' /C calc'!A0"],
    ['+1+HYPERLINK("http://evil";"x")', '\'+1+HYPERLINK("http://evil";"x")'],
  ])("neutralises %j", (input, expected) => {
    expect(neutraliseCell(input)).toBe(expected);
  });

  it.each([
    "+49 30 1234567",
    "+49 (0) 170 123-45",
    "-5",
    "-1.5",
    "0176 123",
    "Anna Müller",
    "",
    "a=b",
  ])("keeps %j readable", (input) => {
    expect(neutraliseCell(input)).toBe(input);
  });
});
