/**
 * Where the build sends some of the CLI's imports (build/bundle-imports.ts): the MCP SDK, zod and
 * ajv to the vendor files, and plugin-autocomplete's command files through the package's folder.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";
import { MCP_VENDOR_IMPORTS, packageFolder, packageFolders } from "../../build/bundle-imports.js";
import { runCli } from "../support/cli.js";
import { temporaryFolder } from "../support/files.js";
import { bundledFiles, bundleHelpers, cliText, bundledModules, installedPackage, literally, packageOf } from "./installed.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const AUTOCOMPLETE = "@oclif/plugin-autocomplete";

/** The modules `file` imports as values (type-only imports left out), by specifier. */
function valueImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && !node.importClause?.isTypeOnly && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && ts.isStringLiteral(node.arguments[0]!))
      found.push(node.arguments[0].text);
    if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test("every module of the MCP SDK and zod that src/mcp loads goes to the MCP vendor file, which exports from each", () => {
  const mcp = path.join(ROOT, "src", "mcp");
  const loaded = readdirSync(mcp, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".ts"))
    .flatMap((name) => valueImports(path.join(mcp, name)))
    .filter((specifier) => specifier.startsWith("@modelcontextprotocol/") || specifier === "zod" || specifier.startsWith("zod/"));
  expect(loaded.length).toBeGreaterThan(0);
  const vendored = valueImports(path.join(ROOT, "src", "cli", "vendor", "mcp.ts"));
  for (const specifier of new Set(loaded)) {
    expect(specifier, specifier).toMatch(MCP_VENDOR_IMPORTS);
    expect(vendored, specifier).toContain(specifier);
  }
});

test("the CLI's bundle holds none of the vendor files' packages: it requires the files", () => {
  const packages = new Set(bundledFiles().map(packageOf));
  for (const vendored of ["@modelcontextprotocol/sdk", "zod", "ajv", "ajv-formats"]) expect(packages.has(vendored), vendored).toBe(false);
  const bundle = cliText();
  expect(bundle).toContain('require("./mcp-vendor.cjs")');
  expect(bundle).toContain('require("./ajv-vendor.cjs")');
});

test("plugin-autocomplete's command files are found in the folder its package resolves to, which Node would not open to an import", () => {
  const folders = packageFolders([AUTOCOMPLETE], import.meta.url);
  expect(folders).toEqual({ [AUTOCOMPLETE]: installedPackage(AUTOCOMPLETE) });
  expect(JSON.parse(readFileSync(path.join(folders[AUTOCOMPLETE]!, "package.json"), "utf8")).name).toBe(AUTOCOMPLETE);
  const imported = valueImports(path.join(ROOT, "src", "cli", "shell", "plugins.ts")).filter((s) => s.startsWith(`${AUTOCOMPLETE}/`));
  expect(imported.length).toBe(3);
  for (const specifier of imported) {
    expect(existsSync(path.join(folders[AUTOCOMPLETE]!, specifier.slice(AUTOCOMPLETE.length + 1))), specifier).toBe(true);
    expect(() => createRequire(import.meta.url).resolve(specifier), specifier).toThrow(expect.objectContaining({ code: "ERR_PACKAGE_PATH_NOT_EXPORTED" }));
  }
});

test("packageFolder names the package it could not place", () => {
  expect(() => packageFolder("no-such-package", path.join(ROOT, "src", "index.ts"))).toThrow(
    `no folder of no-such-package above its entry ${path.join(ROOT, "src", "index.ts")}`,
  );
});

test("bundled, plugin-autocomplete's files are ES modules of their package, as Node runs them", () => {
  // A file reached through a resolve plugin would lose that (esbuild's interop then takes a
  // CommonJS module's `__esModule` flag for a default export Node would not give).
  const create = bundledModules().find((m) => m.id === `node_modules/${AUTOCOMPLETE}/lib/commands/autocomplete/create.js`);
  expect(create).toBeDefined();
  const { toESM } = bundleHelpers();
  const interop = create!.text.match(new RegExp(`${literally(toESM)}\\([\\w$]+\\(\\)(, 1)?\\)`, "g")) ?? [];
  expect(interop.length).toBeGreaterThan(0);
  for (const call of interop) expect(call).toMatch(/, 1\)$/);
});

test("the built CLI's autocomplete commands run: setup, its cache, the shell script", async () => {
  const home = temporaryFolder("reduck-build-autocomplete-");
  // oclif keeps the plugin's files in the CLI's cache folder (REDUCK_CACHE_DIR, else under HOME).
  const env = { HOME: home, REDUCK_CACHE_DIR: path.join(home, "cache"), REDUCK_CONFIG_DIR: path.join(home, "config") };
  const setup = await runCli(["autocomplete", "bash"], { env });
  expect(setup.code).toBe(0);
  expect(setup.stdout).toContain("reduck autocomplete script bash");
  expect(existsSync(path.join(home, "cache", "autocomplete", "functions", "bash", "reduck.bash"))).toBe(true);
  const script = await runCli(["autocomplete", "script", "bash"], { env });
  expect(script.code).toBe(0);
  expect(script.stdout).toContain(`REDUCK_AC_BASH_SETUP_PATH=${path.join(home, "cache", "autocomplete", "bash_setup")}`);
});
