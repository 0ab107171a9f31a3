import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ActivatedCredentials } from "./one-time-notices";

const adminData = { username: "direkt-neu", password: "geheim-123456", email: "neu@example.com" };

describe("the credentials of a directly activated admin", () => {
  it("say a mail went out only when one could (SMTP)", () => {
    const mailed = renderToStaticMarkup(<ActivatedCredentials adminData={adminData} mailed />);
    expect(mailed).toContain("neu@example.com hat eine E-Mail mit einem Link");
    expect(mailed).not.toContain("keine E-Mail versendet");

    const notMailed = renderToStaticMarkup(
      <ActivatedCredentials adminData={adminData} mailed={false} />,
    );
    expect(notMailed).toContain("Es wurde keine E-Mail versendet");
    expect(notMailed).toContain("Geben Sie neu@example.com diese Zugangsdaten selbst weiter");
    expect(notMailed).not.toContain("hat eine E-Mail");
    expect(notMailed).toContain("geheim-123456");
  });
});
