/**
 * The layers of src/ import downwards only: core/ is the bottom (the client, calls, errors,
 * transport) and knows nothing of the run module, the CLI or the agent tool; inside it the wire
 * (core/wire/: what sends and receives) is the bottom and knows nothing of the client or of the
 * words (core/words/); no file of src/ reaches into test/, and no file of src/ reaches itself
 * through its imports. Read from the sources, so a new import that breaks the rule fails here.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const src = join(root, "src");

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.(ts|mts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every relative module a file imports or re-exports (static or dynamic), resolved to a path under the project. */
function relativeImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const found = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)["'](\.{1,2}\/[^"']+)["']/g)];
  return found.map((m) => relative(root, resolve(dirname(file), m[1]!)));
}

/** The source file an import names (`src/core/json.js` -> `src/core/json.ts`), when it is one of ours. */
function sourceOf(target: string): string | undefined {
  const candidates = [target.replace(/\.js$/, ".ts"), target.replace(/\.mjs$/, ".mts"), target, `${target}.ts`, join(target, "index.ts")];
  return candidates.find((candidate) => candidate.startsWith("src/") && existsSync(join(root, candidate)) && /\.(ts|mts|js|mjs)$/.test(candidate));
}

/** Every circle of imports among `files` (repository-relative paths), each once, as the path that closes it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const onPath: string[] = [];
  const visit = (file: string) => {
    const at = onPath.indexOf(file);
    if (at >= 0) {
      found.push([...onPath.slice(at), file]);
      return;
    }
    if (done.has(file)) return;
    onPath.push(file);
    for (const next of graph.get(file) ?? []) visit(next);
    onPath.pop();
    done.add(file);
  };
  for (const file of [...graph.keys()].sort()) visit(file);
  return found;
}

/** The import graph of src/, file by file: type-only imports and re-exports count, as a circle of types is still a circle. */
function importGraph(): Map<string, string[]> {
  return new Map(
    sources(src).map((file) => [
      relative(root, file),
      relativeImports(file).flatMap((target) => {
        const source = sourceOf(target);
        return source ? [source] : [];
      }),
    ]),
  );
}

describe("src/ imports downwards only", () => {
  it("finds the sources it checks (so an empty list cannot pass)", () => {
    expect(sources(join(src, "core")).length).toBeGreaterThan(10);
    expect(sources(join(src, "core", "wire")).length).toBeGreaterThan(10);
    expect(relativeImports(join(src, "index.ts"))).toContain("src/core/client.js");
  });

  it("the client has one address, src/core/client.ts: no second file re-exports it", () => {
    expect(existsSync(join(src, "client.ts"))).toBe(false);
    const second = sources(src).filter((file) => /export \* from "[./]+core\/client\.js"/.test(readFileSync(file, "utf8")));
    expect(second.map((file) => relative(root, file))).toEqual([]);
  });

  it("the wire (core/wire/) imports nothing above it: only its own files and core's plain helpers", () => {
    // Plain helpers: sizes in words, the error values' types, Node modules loaded on first use.
    const helpers = ["src/core/bytes.js", "src/core/error-types.js", "src/core/builtins.js"];
    const crossings = sources(join(src, "core", "wire")).flatMap((file) =>
      relativeImports(file)
        .filter((target) => !target.startsWith("src/core/wire/") && !helpers.includes(target))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it("the wire and the rest of core/ import nothing from core/words/ (the rules about scripts, arguments and near names)", () => {
    const below = sources(join(src, "core")).filter((file) => !file.startsWith(join(src, "core", "words") + sep));
    const crossings = below.flatMap((file) =>
      relativeImports(file)
        .filter((target) => target.startsWith("src/core/words/"))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(below.length).toBeGreaterThan(20);
    expect(crossings).toEqual([]);
  });

  it("the circle finder finds a circle, however long, and only circles", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["c", "d"]],
      ["c", ["a"]],
      ["d", []],
      ["e", ["d"]],
    ]);
    expect(circles(graph)).toEqual([["a", "b", "c", "a"]]);
    expect(circles(new Map([["x", ["x"]]]))).toEqual([["x", "x"]]);
    expect(
      circles(
        new Map([
          ["x", ["y"]],
          ["y", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("no file of src/ reaches itself through its imports (type-only imports included)", () => {
    const graph = importGraph();
    expect([...graph.values()].flat().length).toBeGreaterThan(500);
    expect(circles(graph).map((circle) => circle.join(" -> "))).toEqual([]);
  });

  it("core/ imports nothing from the client entry, the CLI, the agent tool, the run or batch modules", () => {
    const above = /^src\/(client\.js|cli\/|mcp\/|run\/|batch\/|auth\/|index\.js)/;
    const crossings = sources(join(src, "core")).flatMap((file) =>
      relativeImports(file)
        .filter((target) => above.test(target))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it("the agent tool borrows nothing from the CLI", () => {
    const crossings = sources(join(src, "mcp")).flatMap((file) =>
      relativeImports(file)
        .filter((target) => target.startsWith("src/cli/"))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it("report/ (the pages) imports nothing from the CLI or the agent tool", () => {
    const crossings = sources(join(src, "report")).flatMap((file) =>
      relativeImports(file)
        .filter((target) => /^src\/(cli|mcp)\//.test(target))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it("the reduck-client/report entry reaches no client, transport or generated call: a second copy of them (its own bundle) would hold state apart from the main entry's", () => {
    const reached = new Set<string>();
    const visit = (file: string) => {
      const key = relative(root, file);
      if (reached.has(key)) return;
      reached.add(key);
      for (const target of relativeImports(file)) visit(join(root, target.replace(/\.js$/, ".ts")));
    };
    visit(join(src, "report", "index.ts"));
    // Plain functions that hold no state: a copy in the report bundle is harmless.
    const stateless = ["src/core/json.ts", "src/core/words/count.ts"];
    expect(reached.size).toBeGreaterThan(5);
    expect([...reached].filter((file) => !file.startsWith("src/report/") && !stateless.includes(file))).toEqual([]);
  });

  it("only core/ reaches into the client's transport (clientInternals): the run module, uploads, the pages, the agent tool and the CLI send through core/'s functions", () => {
    const outside = sources(src).filter((file) => !relative(src, file).startsWith(`core${sep}`));
    expect(outside.length).toBeGreaterThan(100);
    // The folders that once reached in are among those checked, so the rule cannot pass by missing them.
    for (const folder of ["run", "apps", "report", "mcp", "cli"]) expect(outside.some((file) => relative(src, file).startsWith(`${folder}${sep}`))).toBe(true);
    const reaching = outside.filter((file) => /\bclientInternals\b/.test(readFileSync(file, "utf8"))).map((file) => relative(root, file));
    expect(reaching).toEqual([]);
  });

  it("script-folders/ (scripts as files) imports nothing from the CLI, the agent tool, the run or batch modules", () => {
    const crossings = sources(join(src, "script-folders")).flatMap((file) =>
      relativeImports(file)
        .filter((target) => /^src\/(cli|mcp|run|batch)\//.test(target))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(sources(join(src, "script-folders")).length).toBeGreaterThan(4);
    expect(crossings).toEqual([]);
  });

  it("no file of src/ imports anything from test/", () => {
    const crossings = sources(src).flatMap((file) =>
      relativeImports(file)
        .filter((target) => target.startsWith("test/"))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(crossings).toEqual([]);
  });
});

describe("src/cli's own folders import downwards only", () => {
  const cli = join(src, "cli");
  /**
   * What each folder of src/cli/ may import from the others. shell/ (what every command shares) is
   * the bottom and imports none of them; the helpers of a kind of command build on it, run/ also
   * on scripts/ (a run names a script), batch/ on run/ and scripts/; vendor/ (third-party code
   * loaded on demand) imports nothing of the CLI. commands/ and the entry files (index.ts,
   * commands.ts) are on top and may import any of them; nothing below imports them.
   */
  const mayImport: Record<string, string[]> = {
    shell: [],
    vendor: [],
    hooks: ["shell"],
    scripts: ["shell"],
    flock: ["shell"],
    login: ["shell"],
    mcp: ["shell"],
    run: ["shell", "scripts", "vendor"],
    batch: ["shell", "run", "scripts"],
  };
  const folders = readdirSync(cli, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  /** The folder of src/cli/ a path of it is in; "" for a file of src/cli/ itself (an entry file). */
  const folderOf = (target: string) => {
    const parts = target.split("/");
    return parts.length > 3 ? parts[2]! : "";
  };
  const crossings = (folder: string) =>
    sources(join(cli, folder)).flatMap((file) =>
      relativeImports(file)
        .filter((target) => target.startsWith("src/cli/"))
        .filter((target) => {
          const to = folderOf(target);
          return to !== folder && !mayImport[folder]!.includes(to);
        })
        .map((target) => `${relative(root, file)} -> ${target}`),
    );

  it("finds the folders and the imports it checks (so an empty list cannot pass)", () => {
    expect(folders).toEqual(expect.arrayContaining(["shell", "run", "batch", "scripts", "flock", "commands"]));
    expect(
      sources(join(cli, "run"))
        .flatMap(relativeImports)
        .filter((target) => target.startsWith("src/cli/shell/")).length,
    ).toBeGreaterThan(10);
  });

  it("every folder of src/cli/ but commands/ has its place in the rule", () => {
    expect(folders.filter((folder) => folder !== "commands" && !(folder in mayImport))).toEqual([]);
  });

  it.each(Object.keys(mayImport))("%s/ imports only what the rule gives it", (folder) => {
    expect(crossings(folder)).toEqual([]);
  });

  it("nothing below commands/ imports a command, the command table or the entry", () => {
    const below = folders.filter((folder) => folder !== "commands").flatMap((folder) => sources(join(cli, folder)));
    const upwards = below.flatMap((file) =>
      relativeImports(file)
        .filter((target) => /^src\/cli\/(commands\/|commands\.js$|index\.js$)/.test(target))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(upwards).toEqual([]);
  });
});

describe("the sandbox is reached through its package entry only", () => {
  const sandbox = join(root, "test", "server");
  const outside = ["test", "bench", "examples", "scripts"]
    .flatMap((folder) => sources(join(root, folder)))
    .filter((file) => !file.startsWith(sandbox + sep) && !file.startsWith(join(root, "examples", "scripts") + sep));

  it("finds the files it checks, and the ones that use the sandbox", () => {
    expect(outside.length).toBeGreaterThan(100);
    expect(outside.filter((file) => readFileSync(file, "utf8").includes('"@reduck-client/sandbox"')).length).toBeGreaterThan(40);
  });

  it("no file of the root's tests, bench/, examples/ or scripts/ imports a file of test/server/ by its path", () => {
    const crossings = outside.flatMap((file) =>
      relativeImports(file)
        .filter((target) => target.startsWith("test/server/"))
        .map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(crossings).toEqual([]);
  });

  it("and none names a part of the package other than its entry, its internal entry, its test setup and its vitest harness", () => {
    const deep = outside.flatMap((file) =>
      [...readFileSync(file, "utf8").matchAll(/["']@reduck-client\/sandbox\/([^"']+)["']/g)]
        .filter((m) => !["internal", "test-setup", "testing"].includes(m[1]!))
        .map((m) => `${relative(root, file)} -> ${m[0]}`),
    );
    expect(deep).toEqual([]);
  });
});
