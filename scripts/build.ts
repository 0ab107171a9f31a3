// `npm run build`: the app (React Router's client and server bundles in build/) and the Express
// server as plain JavaScript (build-server/, scripts/build-server.ts, ADR 132), side by side: neither
// reads the other's output, and two processes finish sooner than one after the other (ADR 331).
import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
// The `react-router` command (the package's "bin"), run by this Node without npx in between.
const reactRouter = path.join(ROOT, "node_modules/@react-router/dev/bin.cjs");

function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: "inherit" });
    child.once("error", () => resolve(1));
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all([
  run([reactRouter, "build"]),
  run([path.join(ROOT, "scripts/build-server.ts")]),
]);
process.exit(codes.find((code) => code !== 0) ?? 0);
