import { defineConfig } from "vitest/config";

// Two projects: `unit` (pure code and server modules in process) and `integration` (HTTP against
// the production build, rebuilt first by its globalSetup when older than the sources).
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
    ],
  },
});
