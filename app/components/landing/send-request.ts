import type { SendOutcome } from "~/lib/submission-outcome";

/**
 * How long an upload may make no progress (and, once sent, how long the server may take to
 * answer) before the form says so: the spec's 60 s time-out of a call, counted from the last sign
 * of life, so a large file on a slow line is never cut off while it is still moving.
 */
export const STALL_TIMEOUT_MS = 60_000;

/**
 * POST /api/requests with upload progress (XMLHttpRequest: fetch reports none) and the
 * Idempotency-Key of this submission. Never rejects: an answer, no connection, or no answer in
 * time.
 */
export function sendContactRequest(
  formData: FormData,
  options: { idempotencyKey: string; onProgress: (fraction: number) => void },
): Promise<SendOutcome> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const alive = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        settle({ kind: "timeout" });
        xhr.abort();
      }, STALL_TIMEOUT_MS);
    };
    xhr.open("POST", "/api/requests");
    xhr.responseType = "json";
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("Idempotency-Key", options.idempotencyKey);
    xhr.upload.onprogress = (event) => {
      alive();
      if (event.lengthComputable) options.onProgress(event.loaded / event.total);
    };
    xhr.upload.onload = alive;
    xhr.onprogress = alive;
    xhr.onload = () =>
      settle({
        kind: "answer",
        status: xhr.status,
        body: xhr.response && typeof xhr.response === "object" ? xhr.response : null,
      });
    xhr.onerror = () => settle({ kind: "network" });
    xhr.onabort = () => settle({ kind: "network" });
    alive();
    xhr.send(formData);
  });
}
