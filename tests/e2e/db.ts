// Kept for specs written before the per-worker stack: seeds through the app's server modules
// (tests/e2e/seed.ts). Prefer the `seed` fixture, which also removes what it created.
export { type SeededAdmin, seedAdmin } from "./seed";
