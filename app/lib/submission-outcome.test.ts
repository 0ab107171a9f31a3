import { describe, expect, it } from "vitest";
import {
  newSubmissionKey,
  SUBMISSION_FAILED,
  SUBMISSION_IN_PROGRESS,
  SUBMISSION_NETWORK_ERROR,
  SUBMISSION_TIMEOUT,
  submissionFailure,
} from "./submission-outcome";

describe("submissionFailure", () => {
  it("keeps the key whenever the request may exist without the browser knowing", () => {
    expect(submissionFailure({ kind: "network" })).toEqual({
      message: SUBMISSION_NETWORK_ERROR,
      keepKey: true,
    });
    expect(submissionFailure({ kind: "timeout" })).toEqual({
      message: SUBMISSION_TIMEOUT,
      keepKey: true,
    });
    expect(
      submissionFailure({ kind: "answer", status: 409, body: { error: "noch dabei" } }),
    ).toEqual({ message: SUBMISSION_IN_PROGRESS, keepKey: true });
    expect(submissionFailure({ kind: "answer", status: 503, body: null })).toEqual({
      message: SUBMISSION_FAILED,
      keepKey: true,
    });
  });

  it("takes a new key after an answer the server remembers, with the server's text", () => {
    expect(
      submissionFailure({ kind: "answer", status: 429, body: { error: "Zu viele Anfragen." } }),
    ).toEqual({ message: "Zu viele Anfragen.", keepKey: false });
    expect(submissionFailure({ kind: "answer", status: 400, body: null })).toEqual({
      message: SUBMISSION_FAILED,
      keepKey: false,
    });
  });

  it("says in German, with du, that nothing is lost", () => {
    for (const text of [SUBMISSION_NETWORK_ERROR, SUBMISSION_TIMEOUT, SUBMISSION_IN_PROGRESS]) {
      expect(text).toContain("Alles, was du eingegeben hast, ist noch da");
      expect(text).not.toMatch(/\bSie\b/);
    }
  });
});

describe("newSubmissionKey", () => {
  it("is 32 hex characters, new each time", () => {
    const a = newSubmissionKey();
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(newSubmissionKey()).not.toBe(a);
  });
});
