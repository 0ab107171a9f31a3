import { describe, expect, it } from "vitest";
import { maskTokens, renderMail } from "./render";

const signature = {
  signOff: "Viele Grüße",
  name: "Kleinbyte Software",
  legal: ["Kleinbyte Software GmbH", "Musterstraße 1, 80331 München"],
};

describe("renderMail", () => {
  it("renders text and escaped HTML from one description", () => {
    const { text, html } = renderMail(
      {
        greeting: "Hallo <Anna>,",
        paragraphs: ["Danke für deine Anfrage."],
        facts: [["E-Mail", "anna@example.com"]],
        action: { label: "Anfrage öffnen", url: "https://x.example/a?b=1&c=2" },
      },
      signature,
    );
    expect(text).toContain("Hallo <Anna>,");
    expect(text).toContain("Anfrage öffnen: https://x.example/a?b=1&c=2");
    expect(text).toContain("E-Mail: anna@example.com");
    expect(html).toContain("Hallo &lt;Anna&gt;,");
    expect(html).toContain('href="https://x.example/a?b=1&amp;c=2"');
    expect(html).toContain('lang="de"');
  });

  it("closes both parts with the signature block: sign-off, name, then the legal lines", () => {
    const { text, html } = renderMail({ paragraphs: ["Inhalt."] }, signature);
    expect(
      text.endsWith(
        "Inhalt.\n\nViele Grüße\nKleinbyte Software\n\n-- \nKleinbyte Software GmbH\nMusterstraße 1, 80331 München",
      ),
    ).toBe(true);
    expect(html).toContain("Viele Grüße<br>Kleinbyte Software");
    expect(html).toContain(
      '<div data-signature="legal" style="margin-top:24px;padding-top:12px;border-top:1px solid #e5e7eb;font-size:12px;line-height:1.5;color:#4b5563">Kleinbyte Software GmbH<br>Musterstraße 1, 80331 München</div>',
    );
  });

  it("renders every signature value as text in the HTML part", () => {
    const { html } = renderMail(
      { paragraphs: ["x"] },
      { signOff: "Grüße & <b>mehr</b>", name: 'A "B"', legal: ["<img src=x onerror=alert(1)>"] },
    );
    expect(html).toContain("Grüße &amp; &lt;b&gt;mehr&lt;/b&gt;<br>A &quot;B&quot;");
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).not.toContain("<img");
  });

  it("without legal details the block is the sign-off and the name alone", () => {
    const { text, html } = renderMail({ paragraphs: ["x"] }, { ...signature, legal: [] });
    expect(text.endsWith("x\n\nViele Grüße\nKleinbyte Software")).toBe(true);
    expect(html).not.toContain('data-signature="legal"');
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
