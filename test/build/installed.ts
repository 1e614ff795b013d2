// What the build's tests read: the third-party packages as installed here (what the build bundles),
// and the CLI's bundle as the test build made it.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import ts from "typescript";
import { packageFolder } from "../../build/bundle-imports.js";
import { BUILD_ROOT } from "../support/cli.js";

const require = createRequire(import.meta.url);

/** The folder of the installed package `name`, as Node resolves it from here (and the build from the repository). */
export function installedPackage(name: string): string {
  return packageFolder(name, require.resolve(name));
}

/** The text of `file` (from the package's folder, with `/`) of the installed package `name`. */
export function installedFile(name: string, file: string): string {
  return readFileSync(path.join(installedPackage(name), file), "utf8");
}

/** The CLI's entry in the test build: oclif and what every start needs. */
export const BUNDLE = path.join(BUILD_ROOT, "dist", "cli", "index.cjs");

/**
 * The text of every file of the CLI's bundle (index.cjs; any other .cjs but the vendor files), one
 * after another; what a file would take from another esbuild wrote beside it
 * (`(0, import_chunk_X.require_debug)()`) written as if both were one file (`require_debug()`).
 */
export function cliText(dir = path.dirname(BUNDLE)): string {
  const names = readdirSync(dir).filter((n) => n.endsWith(".cjs") && !n.endsWith("-vendor.cjs"));
  return names
    .map((n) => readFileSync(path.join(dir, n), "latin1"))
    .join("\n")
    .replace(/\(0, import_chunk_\w+\.(\w+)\)/g, "$1");
}

/** A module of the CLI's bundle: its name, and its text there. */
export interface BundledModule {
  /** A file of node_modules (`node_modules/@oclif/core/lib/index.js`), of src/, or a plugin's module (`oclif-unused:semver`). */
  id: string;
  text: string;
}

/** The modules of the CLI's bundle (all its files), each named by the comment esbuild writes before it. */
export function bundledModules(text = cliText()): BundledModule[] {
  const parts = text.split(/^\/\/ ((?:node_modules|src)\/\S+|[a-z][a-z-]*:\S+)$/m);
  const modules: BundledModule[] = [];
  for (let i = 1; i < parts.length; i += 2) modules.push({ id: parts[i]!, text: parts[i + 1]! });
  return modules;
}

/** The files of node_modules the CLI's bundle holds (`@oclif/core/lib/index.js`, ...). */
export function bundledFiles(text = cliText()): string[] {
  return bundledModules(text)
    .filter((m) => m.id.startsWith("node_modules/"))
    .map((m) => m.id.slice("node_modules/".length));
}

/** `name` as a regular expression matches it, and nothing else. */
export function literally(name: string): string {
  return name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** A call of `fn` with no arguments (`fn()`), `fn` not the end of a longer name. */
export function callOf(fn: string): RegExp {
  return new RegExp(`(?<![\\w$])${literally(fn)}\\(\\)`, "g");
}

/**
 * The names esbuild's helpers have in the bundle, whose local names the build shortens
 * (tsup.config.ts): found by what each one is, as esbuild writes it. `commonJS` wraps a CommonJS
 * module in the function that runs it on first use; `esm` an ES module's top level likewise;
 * `toESM` is the interop that gives a CommonJS module to an `import`.
 */
export function bundleHelpers(text = cliText()): { commonJS: string; esm: string; toESM: string } {
  const find = (what: string, shape: RegExp) => {
    const name = shape.exec(text)?.[1];
    if (!name) throw new Error(`the bundle has no ${what} helper of esbuild's (${shape})`);
    return name;
  };
  return {
    commonJS: find("__commonJS", /(?:^var |, )([\w$]+) = \((\w), (\w)\) => \(\) => \(\3 \|\| \2\(\(\3 = \{ exports: \{\} \}\)\.exports, \3\), \3\.exports\)/m),
    esm: find("__esm", /(?:^var |, )([\w$]+) = \((\w), (\w)\) => \(\) => \(\2 && \(\3 = \2\(\2 = 0\)\), \3\)/m),
    toESM: find("__toESM", /(?:^var |, )([\w$]+) = \((\w), (\w), (\w)\) => \(\4 = \2 != null \?/m),
  };
}

/** The function through which the bundle's other modules require `module`, a CommonJS one. */
export function requireFunctionOf(module: BundledModule, helpers = bundleHelpers()): string {
  const name = new RegExp(`^var ([\\w$]+) = ${literally(helpers.commonJS)}\\(`, "m").exec(module.text)?.[1];
  if (!name) throw new Error(`${module.id} is no CommonJS module of the bundle`);
  return name;
}

/** The modules of `modules` that call `fn` (a requireFunctionOf). */
export function callersOf(modules: BundledModule[], fn: string): string[] {
  const definition = new RegExp(`^var ${literally(fn)} = `, "m");
  return modules.filter((m) => callOf(fn).test(m.text) && !definition.test(m.text)).map((m) => m.id);
}

/** The package a path under node_modules belongs to (`@oclif/core/lib/index.js` → `@oclif/core`), the innermost when nested. */
export function packageOf(file: string): string {
  const inner = file.split("/node_modules/").at(-1)!;
  const parts = inner.split("/");
  return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** Where `pkg` is required or imported in `source`, and from which function or method (`<top>` when at the top). */
export function requiresOf(source: string, pkg: string): Array<{ in: string; node: ts.Node }> {
  const file = ts.createSourceFile("module.js", source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found: Array<{ in: string; node: ts.Node }> = [];
  const visit = (node: ts.Node) => {
    const named =
      (ts.isCallExpression(node) && (node.expression.getText() === "require" || node.expression.kind === ts.SyntaxKind.ImportKeyword)) ||
      ts.isImportDeclaration(node) ||
      ts.isExportDeclaration(node);
    const specifier = ts.isCallExpression(node)
      ? node.arguments[0]
      : ts.isImportDeclaration(node) || ts.isExportDeclaration(node)
        ? node.moduleSpecifier
        : undefined;
    if (named && specifier && ts.isStringLiteral(specifier) && specifier.text === pkg) found.push({ in: enclosingFunction(node), node });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Where the identifier `name` is used in `source` (its declaration left out), by enclosing function or method. */
export function usesOf(source: string, name: string): Array<{ in: string; node: ts.Node }> {
  const file = ts.createSourceFile("module.js", source, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found: Array<{ in: string; node: ts.Node }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isIdentifier(node) && node.text === name && !(ts.isVariableDeclaration(node.parent) && node.parent.name === node)) {
      found.push({ in: enclosingFunction(node), node });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The name of the function or method `node` is in, `<top>` at the top of the module. */
export function enclosingFunction(node: ts.Node): string {
  for (let at = node.parent; at; at = at.parent) {
    if ((ts.isFunctionDeclaration(at) || ts.isMethodDeclaration(at) || ts.isFunctionExpression(at)) && at.name) return at.name.getText();
  }
  return "<top>";
}
