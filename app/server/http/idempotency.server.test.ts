import { describe, expect, it } from "vitest";
import {
  IDEMPOTENCY_IN_PROGRESS,
  releaseAbandonedClaims,
  withIdempotency,
} from "./idempotency.server";

const post = (key: string) =>
  new Request("http://localhost/api/requests", {
    method: "POST",
    headers: { "Idempotency-Key": key },
  });

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const created = (id: number) => {
  const headers = new Headers({ Location: `/api/requests/${id}` });
  headers.append("Set-Cookie", `visitor_requests=v${id}; Path=/; HttpOnly`);
  headers.append("Set-Cookie", "toast=t; Path=/");
  return Response.json({ id }, { status: 201, headers });
};

describe("withIdempotency", () => {
  it("answers a retry during the first call's work with 409 and never runs the work twice", async () => {
    let runs = 0;
    const first = deferred<Response>();
    const firstCall = withIdempotency(post("k-flight"), "10.0.0.1", () => {
      runs++;
      return first.promise;
    });
    const retry = await withIdempotency(post("k-flight"), "10.0.0.1", async () => {
      runs++;
      return created(2);
    });
    expect(retry.status).toBe(409);
    expect(retry.headers.get("idempotent-in-progress")).toBe("true");
    expect(await retry.json()).toEqual({ error: IDEMPOTENCY_IN_PROGRESS });

    first.resolve(created(1));
    expect((await firstCall).status).toBe(201);
    const later = await withIdempotency(post("k-flight"), "10.0.0.1", async () => {
      runs++;
      return created(3);
    });
    expect(runs).toBe(1);
    expect(later.status).toBe(201);
    expect(await later.json()).toEqual({ id: 1 });
    expect(later.headers.get("idempotent-replayed")).toBe("true");
    // The replay carries the first answer's cookies (the visitor's history cookie), sealed at rest.
    expect(later.headers.getSetCookie()).toEqual([
      "visitor_requests=v1; Path=/; HttpOnly",
      "toast=t; Path=/",
    ]);
    expect(later.headers.get("location")).toBe("/api/requests/1");
  });

  it("frees the key when the first call fails (5xx or thrown), so a retry runs", async () => {
    const failed = await withIdempotency(post("k-fail"), "10.0.0.2", async () =>
      Response.json({ error: "kaputt" }, { status: 503 }),
    );
    expect(failed.status).toBe(503);
    const retried = await withIdempotency(post("k-fail"), "10.0.0.2", async () => created(7));
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBeNull();

    await expect(
      withIdempotency(post("k-throw"), "10.0.0.2", async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const after = await withIdempotency(post("k-throw"), "10.0.0.2", async () => created(8));
    expect(after.status).toBe(201);
    expect(await after.json()).toEqual({ id: 8 });
  });

  it("keeps another client's same key apart", async () => {
    await withIdempotency(post("k-shared"), "10.0.0.3", async () => created(10));
    const other = await withIdempotency(post("k-shared"), "10.0.0.4", async () => created(11));
    expect(await other.json()).toEqual({ id: 11 });
    expect(other.headers.get("idempotent-replayed")).toBeNull();
  });

  it("drops at boot a claim whose call died with the process, so the retry runs at once", async () => {
    const never = deferred<Response>();
    // The first call never answers (the process was killed during its work).
    void withIdempotency(post("k-crash"), "10.0.0.5", () => never.promise);
    const during = await withIdempotency(post("k-crash"), "10.0.0.5", async () => created(20));
    expect(during.status).toBe(409);
    expect(releaseAbandonedClaims()).toBe(1);
    const retried = await withIdempotency(post("k-crash"), "10.0.0.5", async () => created(21));
    expect(retried.status).toBe(201);
    expect(await retried.json()).toEqual({ id: 21 });
  });
});
