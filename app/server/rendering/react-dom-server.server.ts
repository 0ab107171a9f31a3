// What `react-dom/server` is in the server build (vite.config.ts aliases it here, ADR 185): only the
// streaming renderer. react-dom's server.node.js also loads the legacy renderToString build
// (~0.26 MB of source held in the heap for the process's life), which the server never calls.
// Picks the production or development build by NODE_ENV at run time, as server.node.js and `react`
// do: the two must match.
import { createRequire } from "node:module";
import path from "node:path";
import type * as ReactDomServer from "react-dom/server";

const require = createRequire(import.meta.url);
const dir = path.dirname(require.resolve("react-dom/package.json"));
const build = process.env.NODE_ENV === "production" ? "production" : "development";
const renderer: typeof ReactDomServer = require(
  path.join(dir, `cjs/react-dom-server.node.${build}.js`),
);

export const renderToPipeableStream = renderer.renderToPipeableStream;
