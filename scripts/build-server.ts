// `npm run build` step 2: the Express server (server/*.ts) as plain JavaScript in build-server/, so
// production starts without Node's runtime type stripping (its wasm transformer costs ~18 MB RSS
// and start-up time, ADR 132). The same transform Node applies at run time (module.stripTypeScriptTypes);
// `./x.ts` specifiers become `./x.js`. Tests and the e2e stack keep running server/*.ts directly.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { stripTypeScriptTypes } from "node:module";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCE = path.join(ROOT, "server");
const OUT = path.join(ROOT, "build-server");

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
writeFileSync(path.join(OUT, "package.json"), '{ "type": "module" }\n');
// The launcher reads the configuration through the app's own parser: it goes beside it as ./env.server.js.
const ENV_PARSER = path.join(ROOT, "app/server/platform/env.server.ts");
const strip = (file: string) =>
  stripTypeScriptTypes(readFileSync(file, "utf8"), { mode: "strip" })
    .replace(/(["'])\.\.\/app\/server\/platform\/env\.server\.ts\1/g, "$1./env.server.js$1")
    .replace(/(["'])((?:\.\/)?[\w-]+)\.ts\1/g, "$1$2.js$1");
writeFileSync(path.join(OUT, "env.server.js"), strip(ENV_PARSER));
for (const file of readdirSync(SOURCE)) {
  // dev.ts (npm run dev, Vite) never runs in production.
  if (!file.endsWith(".ts") || /\.(test|d)\.ts$/.test(file) || file === "dev.ts") continue;
  writeFileSync(path.join(OUT, file.replace(/\.ts$/, ".js")), strip(path.join(SOURCE, file)));
}

// Two entries as one bundle each, their packages inside, as the app's server build has them
// (vite.config.ts `ssr.noExternal`): imported from node_modules, a package's ESM files each make
// Node re-read its package.json (drizzle-orm's is 179 KB).
// - The migration child (server/migrate-worker.ts, ADR 296) with drizzle-orm: from node_modules
//   1.2 s and 250 MB RSS in the child on every start, before the gate opened (the goal: cold
//   start ≤ 1 s; the 256 MB machine).
// - The configuration parser the launcher and server/index.ts read first (env.server.js) with zod.
const { build } = await import("vite");
for (const [entry, name, inside] of [
  [path.join(SOURCE, "migrate-worker.ts"), "migrate-worker.js", "drizzle-orm"],
  [ENV_PARSER, "env.server.js", "zod"],
] as const) {
  await build({
    configFile: false,
    logLevel: "warn",
    publicDir: false,
    ssr: { noExternal: [inside] },
    build: {
      ssr: entry,
      outDir: OUT,
      emptyOutDir: false,
      target: "node24",
      minify: false,
      rolldownOptions: { output: { entryFileNames: name } },
    },
  });
}
