import { describe, expect, it } from "vitest";
import { isDeliverableAddress } from "./mail-address";

describe("isDeliverableAddress", () => {
  it("refuses local-only domains, the first admin's default among them", () => {
    for (const email of [
      "admin@localhost.localdomain",
      "admin@localhost",
      "a@mein-rechner.localhost",
      "a@drucker.local",
      "a@x.invalid",
      "a@intranet",
      "kein-at",
      "@agentur.de",
    ])
      expect(isDeliverableAddress(email), email).toBe(false);
  });
  it("accepts ordinary addresses", () => {
    for (const email of ["team@agentur.de", "Admin@Example.com", "a@mail.localhost-firma.de"])
      expect(isDeliverableAddress(email), email).toBe(true);
  });
});
