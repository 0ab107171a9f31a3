import type { MailSignature } from "~/lib/mail-signature";

/** German mails as text + HTML from one description; every value is escaped. */
export type MailContent = {
  /** First line of the mail, e.g. "Hallo Anna,". */
  greeting?: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Further links after the button, one line each (e.g. "Demo-Termin buchen"). */
  links?: { label: string; url: string }[];
  /** Key/value facts shown as a small table (e.g. name, e-mail, phone). */
  facts?: [string, string][];
};

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!,
  );

/** The text part's signature: sign-off and name, then "-- " and the legal lines (RFC 3676). */
function signatureText(signature: MailSignature): string {
  const closing = `${signature.signOff}\n${signature.name}`;
  return signature.legal.length ? `${closing}\n\n-- \n${signature.legal.join("\n")}` : closing;
}

/**
 * Renders a mail with its signature block (ADR 325): the same block closes every mail, in the text
 * and the HTML part; every value, the signature's included, is escaped in the HTML part.
 */
export function renderMail(
  content: MailContent,
  signature: MailSignature,
): { text: string; html: string } {
  const text = [
    content.greeting,
    ...content.paragraphs,
    content.facts?.map(([k, v]) => `${k}: ${v}`).join("\n"),
    content.action ? `${content.action.label}: ${content.action.url}` : undefined,
    ...(content.links ?? []).map((link) => `${link.label}: ${link.url}`),
    signatureText(signature),
  ]
    .filter(Boolean)
    .join("\n\n");

  const p = (s: string) =>
    `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(s).replace(/\n/g, "<br>")}</p>`;
  const html = `<!doctype html><html lang="de"><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:0 auto;padding:24px">
${content.greeting ? p(content.greeting) : ""}
${content.paragraphs.map(p).join("\n")}
${
  content.facts
    ? `<table style="border-collapse:collapse;margin:0 0 16px">${content.facts
        .map(
          ([k, v]) =>
            `<tr><th style="text-align:left;padding:4px 12px 4px 0;font-weight:600">${escapeHtml(k)}</th><td style="padding:4px 0">${escapeHtml(v)}</td></tr>`,
        )
        .join("")}</table>`
    : ""
}
${
  content.action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(content.action.url)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${escapeHtml(content.action.label)}</a></p><p style="font-size:12px;color:#6b7280;word-break:break-all">${escapeHtml(content.action.url)}</p>`
    : ""
}
${(content.links ?? [])
  .map(
    (link) =>
      `<p style="margin:0 0 16px"><a href="${escapeHtml(link.url)}" style="color:#4f46e5">${escapeHtml(link.label)}</a></p>`,
  )
  .join("\n")}
${p(`${signature.signOff}\n${signature.name}`)}
${
  signature.legal.length
    ? `<div data-signature="legal" style="margin-top:24px;padding-top:12px;border-top:1px solid #e5e7eb;font-size:12px;line-height:1.5;color:#4b5563">${signature.legal.map(escapeHtml).join("<br>")}</div>`
    : ""
}
</body></html>`;
  return { text, html };
}

/** Replaces the secret of every token link (…token=XYZ) so stored copies cannot be replayed. */
export function maskTokens(s: string): string {
  return s.replace(/([?&](?:amp;)?token=)[A-Za-z0-9_\-.%]+/g, "$1••••••");
}
