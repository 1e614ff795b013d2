/**
 * The local files `scripts create` and `scripts versions create|update` read: a script's
 * source and its JSON Schemas. Every problem is a usage error (exit 2) that names the flag
 * and the file, found before anything is sent.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Flags } from "@oclif/core";
import { usageError } from "../shell/errors.js";
import { expandHome } from "../../system/paths.js";

export type ScriptLanguage = "typescript" | "javascript";

const LANGUAGE_BY_EXTENSION: Record<string, ScriptLanguage> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".js": "javascript",
  ".mjs": "javascript",
};

/** Flags for a version's code and contract, shared by create and update commands. */
export const versionFileFlags = {
  source: Flags.string({ description: "File with the script's code (.ts or .js).", helpValue: "FILE" }),
  language: Flags.string({ description: "Language of --source, when its extension does not say.", options: ["typescript", "javascript"] }),
  "input-schema": Flags.string({
    description: "JSON file with the input schema (a JSON Schema object; file inputs are string properties with format file).",
    helpValue: "FILE",
  }),
  "output-schema": Flags.string({ description: "JSON file with the output schema (a JSON Schema object).", helpValue: "FILE" }),
};

async function readText(file: string, flag: string): Promise<string> {
  const resolved = expandHome(file);
  try {
    return await readFile(resolved, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "it is a folder" : code === "EACCES" ? "permission denied" : (err as Error).message;
    throw usageError(`${flag} ${file}: cannot read it (${why})`);
  }
}

/**
 * A script's code and its language: `--language`, else the file's extension.
 *
 * @example
 * const { content, language } = await readSource("./send.ts"); // language "typescript"
 */
export async function readSource(file: string, language?: string): Promise<{ content: string; language: ScriptLanguage }> {
  const detected = language ?? LANGUAGE_BY_EXTENSION[path.extname(file).toLowerCase()];
  if (!detected) {
    throw usageError(`--source ${file}: cannot tell its language from the extension; name it .ts or .js, or pass --language typescript|javascript`);
  }
  const content = await readText(file, "--source");
  if (!content.trim()) throw usageError(`--source ${file}: the file is empty`);
  return { content, language: detected as ScriptLanguage };
}

/**
 * A JSON file holding an object (a JSON Schema), or a usage error naming the flag and file.
 *
 * @example
 * const inputSchema = await readJsonObject("./input.json", "--input-schema");
 */
export async function readJsonObject(file: string, flag: string): Promise<Record<string, unknown>> {
  const text = await readText(file, flag);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw usageError(`${flag} ${file}: not valid JSON (${(err as Error).message.replace(/\s+/g, " ").trim()})`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    const found = Array.isArray(value) ? "an array" : value === null ? "null" : `a ${typeof value}`;
    throw usageError(`${flag} ${file}: must hold a JSON object (a JSON Schema such as {"type":"object","properties":{...}}), found ${found}`);
  }
  return value as Record<string, unknown>;
}

export interface VersionFileValues {
  source?: string;
  language?: string;
  "input-schema"?: string;
  "output-schema"?: string;
}

/** The body fields the file flags give (only those given). */
export async function versionFields(flags: VersionFileValues): Promise<{
  content?: string;
  language?: ScriptLanguage;
  input_schema?: Record<string, unknown>;
  output_schema?: Record<string, unknown>;
}> {
  if (flags.language && !flags.source) throw usageError("--language describes --source: give --source FILE with it");
  const [source, input, output] = await Promise.all([
    flags.source ? readSource(flags.source, flags.language) : undefined,
    flags["input-schema"] ? readJsonObject(flags["input-schema"], "--input-schema") : undefined,
    flags["output-schema"] ? readJsonObject(flags["output-schema"], "--output-schema") : undefined,
  ]);
  return {
    ...(source ? { content: source.content, language: source.language } : {}),
    ...(input ? { input_schema: input } : {}),
    ...(output ? { output_schema: output } : {}),
  };
}
