import { describe, expect, it } from "vitest";
import { FIRST_NAME_MAX, firstNameOf, visitorGreeting } from "./first-name";

describe("firstNameOf", () => {
  it("takes the first word of the name", () => {
    expect(firstNameOf("Anna Beispiel")).toBe("Anna");
    expect(firstNameOf("  Anna-Lena   Müller ")).toBe("Anna-Lena");
    expect(firstNameOf("Dr. Jörg Weiß")).toBe("Dr.");
  });

  it("drops every word that could carry a link", () => {
    expect(firstNameOf("https://spam.example/x Anna")).toBe("Anna");
    expect(firstNameOf("www.billig-pillen.de Bert")).toBe("Bert");
    expect(firstNameOf("billig-pillen.de")).toBe("");
    expect(firstNameOf("kauf@spam.example Carla")).toBe("Carla");
    expect(firstNameOf("ftp://x hxxp:/\\evil Dora")).toBe("Dora");
    expect(firstNameOf("spam.example/pfad")).toBe("");
  });

  it("drops link look-alikes: fullwidth and ideographic dots, schemes without //, digits", () => {
    expect(firstNameOf("evil\uff0ecom Bob")).toBe("Bob");
    expect(firstNameOf("evil\u3002com Bob")).toBe("Bob");
    expect(firstNameOf("evil\uff61com Bob")).toBe("Bob");
    expect(firstNameOf("bit\uff0ely\uff0fx Cem")).toBe("Cem");
    expect(firstNameOf("javascript:alert(1) tel:0900123 Dana")).toBe("Dana");
    expect(firstNameOf("Gewinn-0900-123456! Emil")).toBe("Emil");
    expect(firstNameOf("\uff21nna")).toBe("Anna");
  });

  it("removes control characters and cuts at the maximum length", () => {
    expect(firstNameOf("Eva\u0000\u202eFranz")).toBe("Eva");
    expect(firstNameOf("Z".repeat(80))).toHaveLength(FIRST_NAME_MAX);
    expect(Array.from(firstNameOf("😀".repeat(60)))).toHaveLength(FIRST_NAME_MAX);
  });

  it("gives an empty name when nothing is left", () => {
    expect(firstNameOf("")).toBe("");
    expect(firstNameOf("   ")).toBe("");
  });
});

describe("visitorGreeting", () => {
  it("greets with the cleaned first name, or without a name when none is left", () => {
    expect(visitorGreeting("Anna Beispiel")).toBe("Hallo Anna,");
    expect(visitorGreeting("www.spam.example +49 900 123 Anna")).toBe("Hallo Anna,");
    expect(visitorGreeting("https://spam.example 0900-123")).toBe("Hallo,");
  });
});
