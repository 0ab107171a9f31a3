import { describe, expect, it } from "vitest";
import { maskTokens, renderMail } from "./render";

describe("renderMail", () => {
  it("renders text and escaped HTML from one description", () => {
    const { text, html } = renderMail({
      greeting: "Hallo <Anna>,",
      paragraphs: ["Danke für deine Anfrage."],
      facts: [["E-Mail", "anna@example.com"]],
      action: { label: "Anfrage öffnen", url: "https://x.example/a?b=1&c=2" },
    });
    expect(text).toContain("Hallo <Anna>,");
    expect(text).toContain("Anfrage öffnen: https://x.example/a?b=1&c=2");
    expect(text).toContain("E-Mail: anna@example.com");
    expect(html).toContain("Hallo &lt;Anna&gt;,");
    expect(html).toContain('href="https://x.example/a?b=1&amp;c=2"');
    expect(html).toContain('lang="de"');
  });
});

describe("maskTokens", () => {
  it("masks token query values in text and HTML", () => {
    expect(maskTokens("https://x/admin/register?token=abc_DEF-123")).toBe(
      "https://x/admin/register?token=••••••",
    );
    expect(maskTokens('href="https://x/reset?a=1&amp;token=xyz"')).toBe(
      'href="https://x/reset?a=1&amp;token=••••••"',
    );
    expect(maskTokens("kein Link")).toBe("kein Link");
  });
});
