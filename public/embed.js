/* Anfrage-Portal embed.js v2: sizes the form's frame, passes this page's address and utm_* into it. */
(() => {
  const me = document.currentScript;
  if (!me) return;
  const origin = new URL(me.src).origin;
  const frames = [];
  const setup = (frame) => {
    let src;
    try {
      src = new URL(frame.getAttribute("src"), location.href);
    } catch {
      return;
    }
    if (src.origin !== origin || frames.includes(frame)) return;
    const page = new URL(location.href);
    src.searchParams.set("ref", page.origin + page.pathname);
    for (const [key, value] of page.searchParams) {
      if (/^utm_[a-z_]+$/i.test(key)) src.searchParams.set(key, value);
    }
    // A copy with `ref` set before insertion: a new src can be lost mid-load (ADR 302).
    if (frame.src !== src.href) {
      const copy = frame.cloneNode();
      copy.src = src.href;
      frame.replaceWith(copy);
      frame = copy;
    }
    frames.push(frame);
  };
  const scan = () => {
    for (const frame of document.querySelectorAll("iframe[data-anfrage-portal]")) setup(frame);
  };
  window.addEventListener("message", (event) => {
    const data = event.data;
    if (event.origin !== origin || !data || data.type !== "anfrage-portal:height") return;
    const height = Number(data.height);
    if (!(height > 0 && height < 100000)) return;
    for (const frame of frames) {
      if (frame.contentWindow === event.source) frame.style.height = `${Math.ceil(height)}px`;
    }
  });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", scan);
  else scan();
})();
