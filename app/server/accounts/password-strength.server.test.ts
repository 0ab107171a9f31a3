import { describe, expect, it } from "vitest";
import { weakPassword, weakPasswordMessage } from "./password-strength.server";

describe("password strength (zxcvbn, German + common dictionaries, score ≥ 3)", () => {
  it("refuses common and German dictionary passwords with German feedback", async () => {
    expect(await weakPasswordMessage("abc123abc123")).toMatch(
      /^Dieses Passwort ist zu leicht zu erraten\./,
    );
    expect(await weakPasswordMessage("Passwort12345")).toContain("oft verwendeten Passwörtern");
    expect(await weakPasswordMessage("Schmetterling1")).toMatch(/zu leicht zu erraten/);
  });

  it("accepts long random and passphrase-like passwords", async () => {
    expect(await weakPasswordMessage("k7#Lm2!pQ9zR")).toBeNull();
    expect(await weakPasswordMessage("Lampe-Wolke-Fahrrad-91")).toBeNull();
  });

  it("counts the username and the e-mail address as guessable", async () => {
    const name = "quirinwaldmeister";
    expect(await weakPasswordMessage(`${name}1`)).toBeNull();
    expect(await weakPasswordMessage(`${name}1`, [name])).not.toBeNull();
    expect(await weakPasswordMessage(`${name}1`, [`${name}@example.com`])).not.toBeNull();
  });

  it("names the field of the form in its failure", async () => {
    expect(await weakPassword("Passwort12345", "newPassword")).toMatchObject({
      ok: false,
      status: 400,
      field: "newPassword",
    });
    expect(await weakPassword("k7#Lm2!pQ9zR", "newPassword")).toBeNull();
  });
});
