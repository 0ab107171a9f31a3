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
