import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  resolve: { tsconfigPaths: true },
  build: { target: "es2022" },
  // Bundled into the server build (tree-shaken) instead of imported from node_modules at start:
  // their barrel entries load hundreds of modules (date-fns alone ~1,500), which dominated the
  // cold start and the idle heap (ADR 131).
  ssr: { noExternal: ["date-fns", "@date-fns/tz", "drizzle-orm"] },
});
