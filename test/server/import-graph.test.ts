/**
 * The house rules of the sandbox, checked so they stay true: its import graph has no cycle
 * (a circle makes load order matter and hides which part depends on which), and no
 * hand-written file grows past the size bar (a giant file hides what a module does).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = dirname(fileURLToPath(import.meta.url));
const sourceExtensions = [".ts", ".mts", ".mjs"];
const sizeBar = 350;

/** Every source file under the sandbox, skipping dependencies and built output (runtime/isolation/.built). */
function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (sourceExtensions.some((ext) => entry.name.endsWith(ext))) found.push(path);
  }
  return found;
}

/**
 * The relative specifiers a file imports: static `import`, `import type`, `export ... from` and
 * side-effect imports. Type-only edges count too: a type circle is still a circle of modules a
 * reader must hold in mind at once, and it turns into a runtime one the day a value moves.
 * Dynamic `import()` is left out: it is the deliberate way to load a part late.
 */
function relativeImports(text: string): string[] {
  const specifiers: string[] = [];
  const pattern = /^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["'](\.[^"']+)["']/gm;
  for (const match of text.matchAll(pattern)) specifiers.push(match[1]!);
  return specifiers;
}

/** Where a relative specifier lands: `./x.js` is written for `./x.ts` under NodeNext. */
function resolveImport(from: string, specifier: string, known: Set<string>): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, ".ts"), base.replace(/\.mjs$/, ".mts"), `${base}.ts`, join(base, "index.ts")];
  return candidates.find((candidate) => known.has(candidate));
}

function importGraph(): Map<string, string[]> {
  const files = sourceFiles(root);
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = relativeImports(readFileSync(file, "utf8"))
      .map((specifier) => resolveImport(file, specifier, known))
      .filter((target): target is string => target !== undefined && target !== file);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), each one a cycle to break. */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let counter = 0;
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe("the sandbox's house rules", () => {
  it("finds the imports it follows (the check itself can fail)", () => {
    const graph = importGraph();
    expect(graph.get(join(root, "index.ts"))?.length).toBeGreaterThan(0);
    expect(
      cycles(
        new Map([
          ["a", ["b"]],
          ["b", ["a"]],
          ["c", []],
        ]),
      ),
    ).toEqual([["a", "b"]]);
  });

  it("has no import cycle", () => {
    const named = cycles(importGraph()).map((cycle) => cycle.map((file) => relative(root, file)));
    expect(named).toEqual([]);
  });

  it(`has no hand-written file over ${sizeBar} lines`, () => {
    const offenders = sourceFiles(root)
      .map((file) => ({ file: relative(root, file), text: readFileSync(file, "utf8") }))
      // Generated files (openapi-types.ts, by npm run generate) are not hand-written.
      .filter(({ text }) => !text.startsWith("// Written by `npm run generate`"))
      .map(({ file, text }) => ({ file, lines: text.split("\n").length - 1 }))
      .filter(({ lines }) => lines > sizeBar)
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});
