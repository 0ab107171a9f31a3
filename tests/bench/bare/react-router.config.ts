import path from "node:path";
import type { Config } from "@react-router/dev/config";

// The bare React Router 8 page `npm run bench:landing` compares the landing page with.
export default {
  ssr: true,
  buildDirectory: path.resolve(import.meta.dirname, "../../../build-bench-bare"),
} satisfies Config;
