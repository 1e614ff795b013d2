// A TypeScript script body (a version whose language is typescript, a folder's script.ts) runs as
// the JavaScript it is once its types are stripped: esbuild's transform, the body wrapped in the
// async function the runner makes of it, so that `return` and `await` at its top level parse. A body
// that is JavaScript already (most typescript versions are) runs exactly as written: its errors
// keep their line numbers.
import { parse } from "acorn";
import { transformSync } from "esbuild";
import type { ScriptLanguage } from "../store/records.js";

const OPEN = "async function __reduckBody() {\n";
/** Bodies already stripped, by their TypeScript text (a few hundred at most in a sandbox's life). */
const stripped = new Map<string, string>();
const MAX_CACHED = 500;

function isJavaScript(content: string): boolean {
  try {
    parse(`${OPEN}${content}\n}`, { ecmaVersion: "latest", sourceType: "script" });
    return true;
  } catch {
    return false; // TypeScript, or a mistake, which esbuild's parse tells apart
  }
}

function stripTypes(content: string): string {
  let code: string;
  try {
    code = transformSync(`${OPEN}${content}\n}`, { loader: "ts", target: "es2022" }).code;
  } catch {
    return content;
  }
  const start = code.indexOf("{\n") + 2;
  const end = code.lastIndexOf("}");
  return code.startsWith("async function __reduckBody()") && start > 1 && end > start ? code.slice(start, end) : content;
}

/**
 * The JavaScript to run for a body in `language`. TypeScript that does not parse is returned as it
 * is, so that the run fails at compile as a JavaScript body with a syntax error does.
 *
 * @example
 * runnableBody("const n: number = args.a; return { n };", "typescript"); // "const n = args.a;\nreturn { n };\n"
 */
export function runnableBody(content: string, language: ScriptLanguage): string {
  if (language !== "typescript") return content;
  const cached = stripped.get(content);
  if (cached !== undefined) return cached;
  const body = isJavaScript(content) ? content : stripTypes(content);
  if (stripped.size >= MAX_CACHED) stripped.clear();
  stripped.set(content, body);
  return body;
}
