import { Children, cloneElement, Fragment, isValidElement, type ReactNode } from "react";
import { Scripts } from "react-router";

/** The `type` the deferred module script carries until the first interaction (browsers skip it). */
export const LAZY_MODULE_TYPE = "text/x-lazy-module";

/**
 * Events that count as the first interaction: the pointer moving or pressing (mouse, pen, touch),
 * a key, focus entering the page (tabbing into the form) or scrolling. Moving and scrolling come
 * well before a click or a typed character, so the JavaScript usually runs before it is needed.
 */
export const INTERACTION_EVENTS = [
  "pointermove",
  "pointerdown",
  "touchstart",
  "keydown",
  "focusin",
  "scroll",
  "wheel",
] as const;

/**
 * When a route's JavaScript loads (a route's `handle.hydration`; ADR 170, 171): "interaction" waits
 * for the first interaction; "after-paint" starts right after the first paint (or an earlier
 * interaction), so the render-blocking CSS never shares the line with the scripts.
 */
export type Hydration = "interaction" | "after-paint";

// Runs at once (classic inline script, same nonce as React Router's scripts) and waits for the
// trigger: then it adds the module preloads and a copy of the module script, which imports the
// route modules and entry.client and hydrates. A dynamically added script needs the CSP nonce like
// a parsed one; `.nonce` keeps it although the attribute is hidden from the DOM. The nonce comes
// from the loader's own element, and only a module script carrying the same nonce is run: markup
// injected into the page (a `<script type="text/x-lazy-module">` without the nonce) never is.
// "after-paint": on the browser's first-contentful-paint entry (where paint timing is missing: at `load`).
const afterPaint = `var P=window.PerformanceObserver;if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){new P(function(l,ob){if(l.getEntriesByName("first-contentful-paint").length){ob.disconnect();setTimeout(go,0)}}).observe({type:"paint",buffered:true})}else addEventListener("load",go);`;
const loader = (mode: Hydration) =>
  `(function(){var me=document.currentScript,ev=${JSON.stringify(INTERACTION_EVENTS)},o={capture:true,passive:true},done=false;
function go(){if(done)return;done=true;ev.forEach(function(e){removeEventListener(e,go,o)});
var src=[].filter.call(document.querySelectorAll('script[type="${LAZY_MODULE_TYPE}"]'),function(x){return me.nonce&&x.nonce===me.nonce})[0];if(!src)return;
JSON.parse(me.getAttribute("data-preload")||"[]").forEach(function(h){var l=document.createElement("link");l.rel="modulepreload";l.href=h;document.head.appendChild(l)});
var s=document.createElement("script");s.type="module";s.nonce=me.nonce;s.textContent=src.textContent;document.head.appendChild(s)}
addEventListener("submit",function(e){if(!e.defaultPrevented)window.__nativeSubmit=e.target});addEventListener("pageshow",function(e){if(e.persisted)window.__nativeSubmit=null});ev.forEach(function(e){addEventListener(e,go,o)});${mode === "after-paint" ? afterPaint : ""}})()`;

type Element = React.ReactElement<Record<string, unknown> & { children?: ReactNode }>;

/** Drops the module preloads (collecting their URLs) and turns the module script inert. */
function defer(node: ReactNode, preloads: string[]): ReactNode {
  if (!isValidElement(node)) return node;
  const el = node as Element;
  if (el.type === "link" && el.props.rel === "modulepreload") {
    preloads.push(String(el.props.href));
    return null;
  }
  if (el.type === "script" && el.props.type === "module") {
    return cloneElement(el, { type: LAZY_MODULE_TYPE, "data-lazy-hydration": "" });
  }
  if (el.type === Fragment) {
    return (
      <Fragment key={el.key}>
        {Children.map(el.props.children, (child) => defer(child, preloads))}
      </Fragment>
    );
  }
  return node;
}

/**
 * React Router's <Scripts>, optionally loading later (ADR 170, 171): everything it renders stays,
 * including the inline context script the streamed loader data writes into, but the module script
 * and the `modulepreload` links wait for the trigger of `hydration`. Until then the page is the
 * server-rendered, no-JS page (links navigate, forms post natively). Server and client render the
 * same markup, so hydration matches. Without `hydration`: React Router's <Scripts> as it is.
 */
export function AppScripts({ nonce, hydration }: { nonce?: string; hydration?: Hydration }) {
  // Called as a function (unconditionally, so its hooks keep their order) to reshape its output.
  const scripts = Scripts({ nonce });
  if (!hydration || scripts === null) return scripts;
  const preloads: string[] = [];
  const deferred = defer(scripts, preloads);
  return (
    <>
      {deferred}
      <script
        nonce={nonce}
        suppressHydrationWarning
        data-preload={JSON.stringify(preloads)}
        // biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script, no user data
        dangerouslySetInnerHTML={{ __html: loader(hydration) }}
      />
    </>
  );
}
