/**
 * Type-checks files as a user's program would see this package: under the project's own strict
 * settings (tsconfig.json), with `reduck-client` (and `reduck-client/report`) resolved to the built types (dist/index.d.ts of
 * the test build, test/support/cli.ts's BUILD_ROOT: `npm run test:slow` builds them there),
 * all in one compiler run (a run costs seconds: one program holds every file).
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { BUILD_ROOT } from "./cli.js";
import { temporaryFolder } from "./files.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const BUILT_TYPES = path.join(BUILD_ROOT, "dist", "index.d.ts");

export interface Problem {
  /** The file's name as given. */
  file: string;
  line: number;
  /** The first line of the message. */
  first: string;
  /** The whole message, its chain flattened. */
  message: string;
  /** The source text the diagnostic points at. */
  at: string;
}

/**
 * Writes `files` (name -> text; `.ts` names, folders allowed) into a new folder that is an ES
 * module package, compiles them together, and returns each file's problems. `allowUnused`: a
 * value declared and never read is no error (a documentation example shows values it leaves to
 * the reader). `options`: compiler options over the project's (a user's plainer settings).
 *
 * @example
 * const problems = typecheck({ "a.ts": 'import { runScript } from "reduck-client";' });
 * expect(problems.get("a.ts")).toEqual([]);
 */
export function typecheck(
  files: Record<string, string>,
  { allowUnused = false, options: overrides = {} }: { allowUnused?: boolean; options?: ts.CompilerOptions } = {},
): Map<string, Problem[]> {
  const dir = temporaryFolder("reduck-typecheck-");
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  // Other packages (a doc's oauth4webapi) come from the project's own node_modules.
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  const names = Object.keys(files);
  for (const name of names) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), files[name]!);
  }
  const config = ts.readConfigFile(path.join(ROOT, "tsconfig.json"), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const program = ts.createProgram(
    names.map((n) => path.join(dir, n)),
    {
      ...options,
      noEmit: true,
      typeRoots: [path.join(ROOT, "node_modules", "@types")],
      // The sandbox's entries stay its sources, as in the project's own check.
      paths: { ...options.paths, "reduck-client": [BUILT_TYPES], "reduck-client/report": [path.join(BUILD_ROOT, "dist", "report.d.ts")] },
      ...(allowUnused ? { noUnusedLocals: false, noUnusedParameters: false } : {}),
      ...overrides,
    },
  );
  const out = new Map<string, Problem[]>(names.map((n) => [n, []]));
  const byPath = new Map(names.map((n) => [path.join(dir, n), n]));
  for (const d of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...ts.getPreEmitDiagnostics(program)]) {
    const name = d.file ? (byPath.get(path.normalize(d.file.fileName)) ?? d.file.fileName) : "(program)";
    const message = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    const at = d.file && d.start !== undefined ? d.file.text.slice(d.start, d.start + (d.length ?? 0)) : "";
    const list = out.get(name) ?? [];
    list.push({ file: name, line, first: message.split("\n")[0]!, message, at });
    out.set(name, list);
  }
  return out;
}
