// Zod 4 probes `new Function("")` when it builds its first object schema (to compile a fast
// parser). Our CSP allows no eval, so in the browser the probe is refused and Chrome reports a CSP
// issue (Lighthouse: best practices < 100 on every page with a form schema). `jitless` skips the
// probe and the compiled parser; zod reads this configuration from `globalThis.__zod_globalConfig`
// (zod/v4/core/core.js), so setting it here needs no zod import (Zod stays out of the root chunk).
// Imported first by root.tsx; `.client` keeps it out of the server, where eval is allowed.
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
scope.__zod_globalConfig ??= {};
scope.__zod_globalConfig.jitless = true;
