import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { Features } from "~/components/landing/features";

const EMOJI = /[\u{1F300}-\u{1FAFF}\u{2600}-\u{27BF}]/u;

describe("inline SVG icons", () => {
  it("the features section shows decorative SVG icons, no emoji", () => {
    // The icons take the brand's colour from the root data (useBrand): render inside a data router.
    const Stub = createRoutesStub([{ path: "/", Component: Features }]);
    const html = renderToStaticMarkup(<Stub initialEntries={["/"]} />);
    expect(html).not.toMatch(EMOJI);
    expect(html.match(/<svg aria-hidden="true"/g)).toHaveLength(3);
    expect(html).toContain('data-icon="mic"');
  });
});
