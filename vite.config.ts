import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { build, defineConfig, type Plugin } from "vite";

/**
 * The calendar worker's child (ADR 320) as its own bundle beside the server build:
 * `build/server/calendar-worker.js`, ical.js and @date-fns/tz inside, so `react-router build`
 * alone (also the integration tests' build) makes a server that can expand calendars, and the
 * server's own bundle carries no calendar parser.
 */
function calendarWorkerBundle(): Plugin {
  return {
    name: "anfrage-portal:calendar-worker",
    apply: "build",
    applyToEnvironment: (environment) => environment.name === "ssr",
    async writeBundle(options) {
      if (!options.dir) return;
      await build({
        configFile: false,
        logLevel: "warn",
        publicDir: false,
        ssr: { noExternal: true },
        build: {
          ssr: path.resolve(import.meta.dirname, "app/server/calendar-worker/child.ts"),
          outDir: options.dir,
          emptyOutDir: false,
          target: "node24",
          minify: true,
          rolldownOptions: {
            output: {
              entryFileNames: "calendar-worker.js",
              minify: { compress: true, mangle: false, codegen: { asciiOnly: true } },
            },
          },
        },
      });
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [tailwindcss(), reactRouter(), calendarWorkerBundle()],
  resolve: {
    tsconfigPaths: true,
    // The server build renders with the streaming renderer only, without react-dom's legacy
    // renderToString build (app/server/rendering/react-dom-server.server.ts, ADR 185). Dev keeps the package.
    alias:
      command === "build"
        ? [
            {
              find: /^react-dom\/server$/,
              replacement: path.resolve(
                import.meta.dirname,
                "app/server/rendering/react-dom-server.server.ts",
              ),
            },
          ]
        : [],
  },
  build: { target: "es2022" },
  // Bundled into the server build (tree-shaken) instead of imported from node_modules at start:
  // their barrel entries load hundreds of modules (date-fns alone ~1,500), which dominated the
  // cold start and the idle heap (ADR 131).
  ssr: { noExternal: ["date-fns", "@date-fns/tz", "drizzle-orm", "zod", /^@conform-to\//] },
  environments: {
    ssr: {
      // The server bundle's source text stays in the V8 heap for the process's life: minified,
      // ASCII only (one stray "–" makes V8 store the whole source two bytes per character), and
      // with zod bundled (tree-shaken, minified) instead of its ~1.5 MB of ESM sources (ADR 185).
      // keepNames keeps function and class names in stack traces and logs.
      build: {
        minify: true,
        rolldownOptions: {
          output: {
            minify: { compress: true, mangle: false, codegen: { asciiOnly: true } },
          },
        },
      },
    },
  },
}));
