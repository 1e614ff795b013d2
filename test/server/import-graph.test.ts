/**
 * The house rules of the sandbox, checked so they stay true: its rooms import one way down
 * (contract, store, runtime, api, http, process, testing, from the bottom; the package's entries above
 * them all), its import graph has no cycle (a circle makes load order matter and hides which part
 * depends on which), the package's code imports nothing outside this folder and never the client
 * it witnesses, and no hand-written file grows past the size bar (a giant file hides what a module
 * does).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = dirname(fileURLToPath(import.meta.url));
const sourceExtensions = [".ts", ".mts", ".mjs"];
const sizeBar = 350;

/** The rooms, bottom first: a file may import its own room and the rooms before it, never one after. */
const ROOMS = ["contract", "store", "runtime", "api", "http", "process", "testing"] as const;
/**
 * The package's entries (the library and its plain-Node door, the same two for this repository's
 * own tests, the command): above every room, imported by none.
 */
const ENTRIES = ["index.ts", "entry.mjs", "internal.ts", "internal.mjs", "bin/"];

/**
 * Code the package does not ship and no room may import: test files, their helpers (a `fixtures/`
 * folder beside them), the checks that drive reduck-client against the sandbox, the vitest config.
 */
function isTestCode(file: string): boolean {
  const name = relative(root, file);
  return name.endsWith(".test.ts") || /(^|\/)fixtures\//.test(name) || name.startsWith("client-checks/") || name === "vitest.config.ts";
}

/** A file's room, by its first folder: its index in ROOMS, ENTRIES.length for an entry, undefined for anything else. */
function roomOf(file: string): number | undefined {
  const name = relative(root, file);
  if (ENTRIES.some((entry) => name === entry || (entry.endsWith("/") && name.startsWith(entry)))) return ROOMS.length;
  const index = ROOMS.indexOf(name.split("/")[0] as (typeof ROOMS)[number]);
  return index < 0 ? undefined : index;
}

/** Every source file under the sandbox, skipping dependencies and built output (runtime/isolation/.built, the packed declarations in dist/). */
function sourceFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === "node_modules" || entry.name === "dist" || entry.name.startsWith(".")) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...sourceFiles(path));
    else if (sourceExtensions.some((ext) => entry.name.endsWith(ext))) found.push(path);
  }
  return found;
}

/**
 * The specifiers a file imports: static `import`, `import type`, `export ... from`, side-effect
 * imports and dynamic `import()`. Type-only edges count too: a type circle is still a circle of
 * modules a reader must hold in mind at once, and it turns into a runtime one the day a value
 * moves. A dynamic import loads a part late, but it is still a dependency, with a direction.
 */
function importedSpecifiers(text: string): string[] {
  const specifiers: string[] = [];
  const patterns = [/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']/gm, /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g];
  for (const pattern of patterns) for (const match of text.matchAll(pattern)) specifiers.push(match[1]!);
  return specifiers;
}

function relativeImports(text: string): string[] {
  return importedSpecifiers(text).filter((specifier) => specifier.startsWith("."));
}

/** Where a relative specifier lands: `./x.js` is written for `./x.ts` under NodeNext. */
function resolveImport(from: string, specifier: string, known: Set<string>): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, ".ts"), base.replace(/\.mjs$/, ".mts"), `${base}.ts`, join(base, "index.ts")];
  return candidates.find((candidate) => known.has(candidate));
}

/** The package's code: what it ships and runs, not its tests. */
function packageFiles(): string[] {
  return sourceFiles(root).filter((file) => !isTestCode(file));
}

/**
 * The imports of `graph` that break the rooms' order, as "from -> to": a room importing a room
 * above it or an entry, and package code importing test code.
 */
function layerCrossings(graph: Map<string, string[]>): string[] {
  return [...graph].flatMap(([file, targets]) => {
    if (isTestCode(file)) return [];
    const from = roomOf(file);
    return targets
      .filter((target) => {
        if (isTestCode(target)) return true;
        const to = roomOf(target);
        return from === undefined || to === undefined || to > from || (to === ROOMS.length && from !== ROOMS.length);
      })
      .map((target) => `${relative(root, file)} -> ${relative(root, target)}`);
  });
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
    // A dynamic import is followed too: the real browser's session loads late.
    expect(graph.get(join(root, "runtime", "sessions.ts"))).toContain(join(root, "runtime", "browser", "session.ts"));
    const at = (name: string) => join(root, name);
    const made = new Map([
      [at("store/a.ts"), [at("contract/b.ts"), at("store/c.ts")]],
      [at("store/c.ts"), [at("api/d.ts")]],
      [at("testing/e.ts"), [at("index.ts")]],
      [at("api/f.ts"), [at("api/run/fixtures/g.ts")]],
      [at("index.ts"), [at("testing/e.ts")]],
      [at("api/h.test.ts"), [at("index.ts")]],
    ]);
    expect(layerCrossings(made)).toEqual(["store/c.ts -> api/d.ts", "testing/e.ts -> index.ts", "api/f.ts -> api/run/fixtures/g.ts"]);
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

  it("keeps the package's code in its rooms: every file is in one, or is an entry", () => {
    const files = packageFiles();
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((file) => roomOf(file) === undefined).map((file) => relative(root, file))).toEqual([]);
    // Every room holds code.
    expect(ROOMS.filter((room) => !files.some((file) => relative(root, file).startsWith(`${room}/`)))).toEqual([]);
  });

  it(`imports one way down the rooms (${ROOMS.join(" < ")} < the entries), and never test code`, () => {
    expect(layerCrossings(importGraph())).toEqual([]);
  });

  it("has no import cycle", () => {
    const named = cycles(importGraph()).map((cycle) => cycle.map((file) => relative(root, file)));
    expect(named).toEqual([]);
  });

  it("imports nothing outside this folder from the package's code, and never reduck-client, the client it witnesses", () => {
    const leaving = packageFiles().flatMap((file) =>
      importedSpecifiers(readFileSync(file, "utf8"))
        .filter(
          (specifier) =>
            specifier === "reduck-client" ||
            specifier.startsWith("reduck-client/") ||
            (specifier.startsWith(".") && relative(root, resolve(dirname(file), specifier)).startsWith("..")),
        )
        .map((specifier) => `${relative(root, file)}: ${specifier}`),
    );
    expect(leaving).toEqual([]);
    // The check sees reduck-client where it is imported: the checks that drive it against the sandbox.
    const clientChecks = sourceFiles(join(root, "client-checks")).filter((file) => importedSpecifiers(readFileSync(file, "utf8")).includes("reduck-client"));
    expect(clientChecks.length).toBeGreaterThan(0);
  });

  it(`has no hand-written file over ${sizeBar} lines`, () => {
    const offenders = sourceFiles(root)
      .map((file) => ({ file: relative(root, file), text: readFileSync(file, "utf8") }))
      // Generated files (contract/openapi-types.ts, by npm run generate) are not hand-written.
      .filter(({ text }) => !text.startsWith("// Written by `npm run generate`"))
      .map(({ file, text }) => ({ file, lines: text.split("\n").length - 1 }))
      .filter(({ lines }) => lines > sizeBar)
      .map(({ file }) => file);
    expect(offenders).toEqual([]);
  });
});
