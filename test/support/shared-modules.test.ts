/**
 * Test files share their worker's modules (vitest.config.ts: `isolate: false`, which saves most of
 * the suite's import time): a module is evaluated once per worker, for the first test file that
 * imports it. So no helper module may register vitest hooks (`beforeAll`, `afterEach`...) when it
 * is imported, nor call a `useX()` that does: a second test file importing it in the same worker
 * would get no hooks at all. A helper exports a `useX()` that each test file calls instead
 * (test/e2e/batch-sandbox.ts's useBatchSandbox, for one).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "vitest";

const TEST = fileURLToPath(new URL("..", import.meta.url));
/** The setup files of vitest.config.ts and of the sandbox's own, which vitest evaluates anew for every test file. */
const SETUP_FILES = ["support/sandbox-cleanup.ts", "server/testing/test-setup.ts"];
/** A top-level statement that registers a hook, or calls a `useX()`, possibly keeping its value. */
const AT_IMPORT = /^(?:export\s+)?(?:(?:const|let|var)\s+[\w{}\s,]+=\s*)?(?:(?:before|after)(?:All|Each)|use[A-Z]\w*)\(/;

/** The lines of `text` that register hooks when the module is evaluated. */
function hooksAtImport(text: string): string[] {
  return text.split("\n").filter((line) => AT_IMPORT.test(line));
}

function helperModules(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name.startsWith(".") ? [] : helperModules(full);
    return /\.(ts|mts|mjs|js)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name) ? [full] : [];
  });
}

test("the check finds a hook registered at import, and a useX() called at import", () => {
  expect(hooksAtImport('import { beforeAll } from "vitest";\nbeforeAll(() => server.listen());\n')).toEqual(["beforeAll(() => server.listen());"]);
  expect(hooksAtImport("export const ref = useSandboxClient({ fresh: true });\n")).toHaveLength(1);
  expect(hooksAtImport("export function useWire(): void {\n  beforeAll(() => server.listen());\n}\n")).toEqual([]);
});

test("the setup files are imported by no module (imported, a setup file's hooks would serve the first test file only)", () => {
  const importers = helperModules(TEST)
    .concat(
      readdirSync(TEST, { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".test.ts") && !f.includes("node_modules"))
        .map((f) => path.join(TEST, f)),
    )
    .filter((file) =>
      /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](?:@reduck-client\/sandbox\/test-setup|[./]*(?:server\/)?(?:testing\/)?test-setup(?:\.js)?|[./]*sandbox-cleanup(?:\.js)?)["']/.test(
        readFileSync(file, "utf8"),
      ),
    );
  expect(importers.map((file) => path.relative(TEST, file))).toEqual([]);
});

test("no helper module of the tests registers hooks when it is imported", () => {
  const helpers = helperModules(TEST).filter((file) => !SETUP_FILES.includes(path.relative(TEST, file).split(path.sep).join("/")));
  expect(helpers.length).toBeGreaterThan(50);
  const found = helpers.flatMap((file) => hooksAtImport(readFileSync(file, "utf8")).map((line) => `${path.relative(TEST, file)}: ${line.trim()}`));
  expect(found).toEqual([]);
});
