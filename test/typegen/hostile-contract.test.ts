/**
 * The module made from contracts that attack every slot (./hostile-contract.ts) stays data: no
 * line end but LF and no control or bidi character in it, only type-only imports, type
 * declarations and `declare module`, string literals holding what they were given, and an import
 * that runs nothing. (That it compiles against the package's own types: the slow test beside it.)
 */
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, test } from "vitest";
import { scriptsModule } from "../../src/typegen/module.js";
import { temporaryFolder } from "../support/files.js";
import { hostileContracts } from "./hostile-contract.js";

const folder = temporaryFolder("reduck-hostile-contract-");
const MARK = path.join(folder, "payload-ran");
const { contracts, command } = hostileContracts(MARK);
const text = scriptsModule(contracts, command);

/** Each top-level statement, and whether it is one a types module may hold. */
function statements(source: ts.SourceFile): Array<{ kind: string; allowed: boolean }> {
  return source.statements.map((s) => {
    const kind = ts.SyntaxKind[s.kind];
    if (ts.isImportDeclaration(s)) return { kind, allowed: s.importClause?.isTypeOnly === true };
    if (ts.isExportDeclaration(s)) return { kind, allowed: !s.moduleSpecifier && ts.isNamedExports(s.exportClause!) && s.exportClause.elements.length === 0 };
    if (ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)) return { kind, allowed: true };
    if (ts.isModuleDeclaration(s)) {
      const declared = ts.getModifiers(s)?.some((m) => m.kind === ts.SyntaxKind.DeclareKeyword) ?? false;
      return { kind, allowed: declared && ts.isStringLiteral(s.name) && s.name.text === "reduck-client" };
    }
    return { kind, allowed: false };
  });
}

describe("a contract written to break out of the generated module", () => {
  test("no line end but LF, no control or bidi character, reaches the file", () => {
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    // The hostile text is there, shown: not dropped.
    expect(text).toContain("\\u2028globalThis.process");
    expect(text).toContain("*\\/ globalThis.process");
  });

  test("the module parses without error into type-only imports, type declarations and `declare module` only", () => {
    const out = ts.transpileModule(text, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    expect(out.diagnostics?.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"))).toEqual([]);
    const source = ts.createSourceFile("reduck-scripts.ts", text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    const found = statements(source);
    expect(found.length).toBeGreaterThan(10);
    expect(found.filter((s) => !s.allowed)).toEqual([]);
    // What remains of it as JavaScript is an empty module.
    expect(out.outputText.replace(/\/\/.*|\/\*[\s\S]*?\*\//g, "").trim()).toBe("export {};");
  });

  test("each string literal holds the text it was given: the registry's keys are the addresses", () => {
    const source = ts.createSourceFile("reduck-scripts.ts", text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
    const augmentation = source.statements.find(ts.isModuleDeclaration)!;
    const registry = (augmentation.body as ts.ModuleBlock).statements.find(ts.isInterfaceDeclaration)!;
    const keys = registry.members.map((m) => (m.name && ts.isStringLiteral(m.name) ? m.name.text : undefined));
    const addresses = contracts.map((c) => `${c.handle}/${c.host}/${c.slug}`).sort();
    expect(keys).toEqual(addresses);
  });

  test("importing it runs nothing: the payload's file is never written", () => {
    const js = ts.transpileModule(text, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    const file = path.join(folder, "reduck-scripts.mjs");
    writeFileSync(file, js);
    const run = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", `await import(${JSON.stringify(pathToFileURL(file).href)}); console.log("imported");`],
      {
        encoding: "utf8",
      },
    );
    expect(run.stderr).toBe("");
    expect(run.stdout).toBe("imported\n");
    expect(existsSync(MARK)).toBe(false);
  });
});
