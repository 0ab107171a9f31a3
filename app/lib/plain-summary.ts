/**
 * Whether a text can stand as a request's summary: plain prose, not data or markup. An AI answer
 * that is JSON (`{}`, `[…]`), HTML or XML, a code block, a Markdown heading or a placeholder word
 * ("null", "N/A") is discarded and asked for again (server/ai/request-ai.server.ts), and one that
 * was stored before is never shown: the list, the mails and the JSON fall back to the description.
 */
export function isPlainSummary(text: string | null | undefined): text is string {
  const value = text?.trim() ?? "";
  if (!value) return false;
  if (/^[[{]/.test(value) || /[\]}]$/.test(value)) return false;
  if (/<\/?[a-z!?][^>]*>/i.test(value)) return false;
  if (value.includes("```") || /^#{1,6}\s/m.test(value)) return false;
  if (/^(null|undefined|none|n\/?a|keine|-+|\.+)$/i.test(value)) return false;
  // Words, not symbols: letters make up most of the text.
  const letters = value.match(/\p{L}/gu)?.length ?? 0;
  return letters >= 2 && letters >= value.replace(/\s/g, "").length * 0.6;
}
