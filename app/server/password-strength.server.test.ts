import { describe, expect, it } from "vitest";
import { weakPassword, weakPasswordMessage } from "./password-strength.server";

describe("password strength (zxcvbn, German + common dictionaries, score ≥ 3)", () => {
  it("refuses common and German dictionary passwords with German feedback", () => {
    expect(weakPasswordMessage("abc123abc123")).toMatch(
      /^Dieses Passwort ist zu leicht zu erraten\./,
    );
    expect(weakPasswordMessage("Passwort12345")).toContain("oft verwendeten Passwörtern");
    expect(weakPasswordMessage("Schmetterling1")).toMatch(/zu leicht zu erraten/);
  });

  it("accepts long random and passphrase-like passwords", () => {
    expect(weakPasswordMessage("k7#Lm2!pQ9zR")).toBeNull();
    expect(weakPasswordMessage("Lampe-Wolke-Fahrrad-91")).toBeNull();
  });

  it("counts the username and the e-mail address as guessable", () => {
    const name = "quirinwaldmeister";
    expect(weakPasswordMessage(`${name}1`)).toBeNull();
    expect(weakPasswordMessage(`${name}1`, [name])).not.toBeNull();
    expect(weakPasswordMessage(`${name}1`, [`${name}@example.com`])).not.toBeNull();
  });

  it("names the field of the form in its failure", () => {
    expect(weakPassword("Passwort12345", "newPassword")).toMatchObject({
      ok: false,
      status: 400,
      field: "newPassword",
    });
    expect(weakPassword("k7#Lm2!pQ9zR", "newPassword")).toBeNull();
  });
});
