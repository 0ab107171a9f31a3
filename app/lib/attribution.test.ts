import { describe, expect, it } from "vitest";
import { attributionFromVisit, withCarriedReferrer } from "./attribution";

const own = ["anfrage.example"];
const visit = (url: string, referer: string | null = null) =>
  attributionFromVisit(new URL(url), referer, own);

describe("attributionFromVisit", () => {
  it("takes another site's Referer (origin and path, no query) and the landing path", () => {
    expect(
      visit("https://anfrage.example/?utm_source=ads&seite=preise", "https://www.google.com/"),
    ).toEqual({
      source: "ads",
      medium: null,
      campaign: null,
      referrer: "https://www.google.com",
      landingPath: "/?seite=preise",
    });
  });

  it("takes the referrer carried in `ref` when the Referer is our own page (a no-JS post's redirect)", () => {
    const a = visit(
      "https://anfrage.example/?ref=https%3A%2F%2Fwww.google.com%2Fsearch%3Fq%3Dx",
      "https://anfrage.example/",
    );
    expect(a.referrer).toBe("https://www.google.com/search");
    // `ref` is no part of the landing path.
    expect(a.landingPath).toBe("/");
  });

  it("a real external Referer wins over `ref`; `ref` naming our own site or no address is ignored", () => {
    expect(
      visit("https://anfrage.example/?ref=https%3A%2F%2Fa.example", "https://b.example/x").referrer,
    ).toBe("https://b.example/x");
    expect(visit("https://anfrage.example/?ref=https%3A%2F%2Fanfrage.example%2Fx").referrer).toBe(
      null,
    );
    expect(visit("https://anfrage.example/?ref=javascript%3Aalert(1)").referrer).toBe(null);
    expect(visit("https://anfrage.example/?ref=kaputt").referrer).toBe(null);
  });

  it("leaves React Router's data-request parameters out of the landing path", () => {
    expect(visit("https://anfrage.example/?_routes=root&seite=a").landingPath).toBe("/?seite=a");
  });
});

describe("withCarriedReferrer", () => {
  it("adds the posted external referrer to the redirect path as `ref`", () => {
    expect(withCarriedReferrer("/?code=ABC#contact", "https://www.google.com", own)).toBe(
      "/?code=ABC&ref=https%3A%2F%2Fwww.google.com#contact",
    );
  });

  it("keeps the path as it is without a usable referrer or with one carried already", () => {
    expect(withCarriedReferrer("/", null, own)).toBe("/");
    expect(withCarriedReferrer("/", "", own)).toBe("/");
    expect(withCarriedReferrer("/", "https://anfrage.example/", own)).toBe("/");
    expect(withCarriedReferrer("/", "ftp://files.example/", own)).toBe("/");
    expect(withCarriedReferrer("/?ref=https%3A%2F%2Fa.example", "https://b.example", own)).toBe(
      "/?ref=https%3A%2F%2Fa.example",
    );
  });
});
