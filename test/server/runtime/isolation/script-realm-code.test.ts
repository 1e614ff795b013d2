/**
 * The code evaluated inside a script body's context (inside/, beside this file) may use only what every
 * realm has: the language's own built-ins. A reference to a Node or browser global (`process`,
 * `Buffer`, `console`, `structuredClone`) would throw there, or, worse, be handed in one day. The
 * root's tsc checks these files with Node's and the DOM's types, so it cannot tell; this checks
 * them again with the ES2022 library alone.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { expect, test } from "vitest";

const INSIDE = path.join(path.dirname(fileURLToPath(import.meta.url)), "inside");
const PROBE = path.join(INSIDE, "probe-not-a-file.ts");

/** The type errors of inside/ checked with the ES2022 library and no @types, as "file: message". */
function errorsWithLanguageOnly(extra?: string): string[] {
  const options: ts.CompilerOptions = {
    lib: ["lib.es2022.d.ts"],
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    noEmit: true,
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  if (extra !== undefined) {
    const getSourceFile = host.getSourceFile.bind(host);
    host.getSourceFile = (file, language, ...rest) =>
      path.resolve(file) === PROBE ? ts.createSourceFile(file, extra, language) : getSourceFile(file, language, ...rest);
    const fileExists = host.fileExists.bind(host);
    host.fileExists = (file) => path.resolve(file) === PROBE || fileExists(file);
  }
  const roots = [path.join(INSIDE, "index.ts"), ...(extra === undefined ? [] : [PROBE])];
  const program = ts.createProgram(roots, options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => `${d.file ? path.relative(INSIDE, d.file.fileName) : "?"}: ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`);
}

test("the code inside a body's context uses the language's built-ins only", () => {
  expect(errorsWithLanguageOnly()).toEqual([]);
});

test("the check finds a Node global (so it can fail)", () => {
  const errors = errorsWithLanguageOnly("export const pid = process.pid;\n");
  expect(errors.some((e) => e.startsWith("probe-not-a-file.ts: Cannot find name 'process'"))).toBe(true);
});
