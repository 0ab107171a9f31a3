import { defineConfig } from "vitest/config";

// Three projects: `unit` (pure code and server modules in process), `integration` (HTTP against
// the production build, rebuilt first by its globalSetup when older than the sources) and `dev`
// (`npm run dev` started once, slow: Vite optimises dependencies on a cold cache; `npm run test:dev`).
// `npx vitest run --project unit` runs only the fast ones.
export default defineConfig({
  resolve: { tsconfigPaths: true },
  test: {
    setupFiles: ["tests/setup/vitest.setup.ts"],
    environment: "node",
    pool: "forks",
    // Three test files at once (ADR 331, amendment): Vitest's default is one fewer than the cores,
    // one file at a time on the 2-core machine, and the integration files mostly wait on the
    // server they started (922.8 s quiet with one, 472.2 s with three, 251 files).
    maxWorkers: 3,
    // Every test file runs in a fresh process and imports its modules anew. The barrels the
    // production build bundles (vite.config.ts ssr.noExternal, ADR 131) would load file by file from
    // node_modules each time (date-fns alone ~1,500 modules, most of a unit test's import time):
    // pre-bundled once per run (cached in node_modules/.vite/vitest), each is one module (ADR 330).
    deps: {
      optimizer: {
        ssr: {
          enabled: true,
          include: [
            "date-fns",
            "@date-fns/tz",
            "drizzle-orm",
            "drizzle-orm/sqlite-core",
            "drizzle-orm/better-sqlite3",
            "drizzle-orm/better-sqlite3/migrator",
            "zod",
            "@conform-to/zod/v4",
            "@conform-to/react",
          ],
        },
      },
    },
    testTimeout: 20_000,
    hookTimeout: 60_000,
    reporters: ["default"],
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "db/**/*.test.ts", "tests/unit/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts", "tests/security/**/*.test.ts"],
          globalSetup: ["tests/setup/build.global.ts"],
        },
      },
      {
        extends: true,
        test: { name: "dev", include: ["tests/dev/**/*.test.ts"], testTimeout: 60_000 },
      },
    ],
  },
});
