import { describe, expect, it } from "vitest";
import { requests } from "~db/schema";
import { db } from "../platform/db.server";
import {
  getVisitorRequestIds,
  newVisitorSecret,
  rememberVisitorRequest,
  visitorCookie,
  visitorOwnsRequest,
} from "./visitor.server";

function createRequest(secretHash: string) {
  return db()
    .insert(requests)
    .values({
      name: "Test",
      email: "t@example.com",
      phone: "+49 1 23456",
      companyDescription: "Eine Firma mit genug Beschreibung.",
      visitorSecretHash: secretHash,
    })
    .returning({ id: requests.id })
    .get().id;
}

const withCookie = (setCookie: string) =>
  new Request("http://localhost/", { headers: { cookie: setCookie.split(";")[0] } });

describe("visitor history cookie", () => {
  it("remembers requests newest first and proves ownership by the secret", async () => {
    const a = newVisitorSecret();
    const b = newVisitorSecret();
    const idA = createRequest(a.hash);
    const idB = createRequest(b.hash);
    const first = await rememberVisitorRequest(new Request("http://localhost/"), idA, a.secret);
    const second = await rememberVisitorRequest(withCookie(first), idB, b.secret);
    expect(await getVisitorRequestIds(withCookie(second))).toEqual([idB, idA]);
    expect(await visitorOwnsRequest(withCookie(second), idA)).toBe(true);
    expect(await visitorOwnsRequest(withCookie(first), idB)).toBe(false);
  });

  it("ignores entries whose secret does not match the row, and unsigned cookies", async () => {
    const real = newVisitorSecret();
    const id = createRequest(real.hash);
    const forged = await visitorCookie().serialize([{ id, s: "geraten" }]);
    expect(await getVisitorRequestIds(withCookie(forged))).toEqual([]);
    expect(await visitorOwnsRequest(withCookie(forged), id)).toBe(false);
    const unsigned = `visitor_requests=${btoa(JSON.stringify([{ id, s: real.secret }]))}`;
    expect(await getVisitorRequestIds(withCookie(unsigned))).toEqual([]);
  });

  it("keeps the newest 30 entries", async () => {
    let cookie = "";
    const ids: number[] = [];
    for (let i = 0; i < 32; i++) {
      const s = newVisitorSecret();
      const id = createRequest(s.hash);
      ids.push(id);
      cookie = await rememberVisitorRequest(withCookie(cookie || "x=y"), id, s.secret);
    }
    const remembered = await getVisitorRequestIds(withCookie(cookie));
    expect(remembered).toHaveLength(30);
    expect(remembered[0]).toBe(ids[31]);
    expect(remembered).not.toContain(ids[0]);
  });
});
