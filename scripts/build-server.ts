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
for (const file of readdirSync(SOURCE)) {
  // dev.ts (npm run dev, Vite) never runs in production.
  if (!file.endsWith(".ts") || /\.(test|d)\.ts$/.test(file) || file === "dev.ts") continue;
  const code = stripTypeScriptTypes(readFileSync(path.join(SOURCE, file), "utf8"), {
    mode: "strip",
  }).replace(/(["'])((?:\.\/)?[\w-]+)\.ts\1/g, "$1$2.js$1");
  writeFileSync(path.join(OUT, file.replace(/\.ts$/, ".js")), code);
}
