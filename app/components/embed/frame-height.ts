import { type RefObject, useEffect } from "react";
import { EMBED_HEIGHT_MESSAGE } from "~/lib/embed";

/**
 * Inside a frame: tells the host page the content's height whenever it changes (public/embed.js
 * resizes the frame on `{ type: "anfrage-portal:height", height }`; the height says nothing
 * about the visitor, so any parent may read it). Nothing when the page is not framed.
 */
export function useFrameHeight(ref: RefObject<HTMLElement | null>) {
  useEffect(() => {
    const element = ref.current;
    if (!element || window.parent === window) return;
    const post = () =>
      window.parent.postMessage(
        { type: EMBED_HEIGHT_MESSAGE, height: Math.ceil(element.getBoundingClientRect().height) },
        "*",
      );
    const observer = new ResizeObserver(post);
    observer.observe(element);
    post();
    return () => observer.disconnect();
  }, [ref]);
}
