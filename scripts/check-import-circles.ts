// `npm run lint` step: no import circles among the source modules of app/, server/ and scripts/
// (tests excepted). Every import counts — type-only and dynamic ones too: a circle of types is still
// two modules that cannot be read apart. When two modules need each other, the shared piece moves
// into a small leaf both import (docs/architecture.md, ADR 305).
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "..");
const FOLDERS = ["app", "server", "scripts"];
const SOURCE = /\.(ts|tsx|mjs)$/;
const SKIP = /\.(test|spec|d)\.tsx?$/;
const ALIASES: [string, string][] = [
  ["~/", "app/"],
  ["~db/", "db/"],
];
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+|\bexport\s+\*\s+from\s*)["']([^"'\n]+)["']/gm;

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(path.join(ROOT, folder), { withFileTypes: true })) {
    const relative = path.posix.join(folder, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== "node_modules" && !entry.name.startsWith("."))
        out.push(...sourceFiles(relative));
    } else if (SOURCE.test(entry.name) && !SKIP.test(entry.name)) out.push(relative);
  }
  return out;
}

function resolve(from: string, specifier: string): string | null {
  let base: string | null = null;
  for (const [alias, folder] of ALIASES)
    if (specifier.startsWith(alias)) base = folder + specifier.slice(alias.length);
  if (specifier.startsWith("./") || specifier.startsWith("../"))
    base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  if (base === null) return null;
  for (const suffix of ["", ".ts", ".tsx", "/index.ts", "/index.tsx"]) {
    const candidate = base + suffix;
    const full = path.join(ROOT, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return null;
}

/** The import graph of the given files: file → the files it imports (inside the graph only). */
export function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    const targets = new Set<string>();
    for (const match of text.matchAll(SPECIFIER)) {
      const target = resolve(file, match[1] as string);
      if (target && known.has(target) && target !== file) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The strongly connected components with more than one module (Tarjan), each as one circle. */
export function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** One chain through a circle, for the message: start → … → start. */
function chain(graph: Map<string, string[]>, component: string[]): string[] {
  const members = new Set(component);
  const start = component[0] as string;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at) as string) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return component;
}

if (import.meta.main) {
  const graph = importGraph(FOLDERS.flatMap(sourceFiles));
  const found = circles(graph);
  if (found.length === 0) {
    console.log(`Import circles: none among ${graph.size} source modules.`);
  } else {
    console.error(
      `Import circles: ${found.length} (move the shared piece into a leaf both import)`,
    );
    for (const component of found)
      console.error(`  ${chain(graph, component).join(" → ")}  (${component.length} modules)`);
    process.exitCode = 1;
  }
}
