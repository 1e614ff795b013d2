/**
 * The TypeScript module `reduck scripts types` writes: for each script an args type, a files
 * type (its file inputs, each a FileSource) and a result type, registered by declaration merging
 * in reduck-client's `ReduckScripts` under the script's address. Deterministic: scripts sorted by
 * address, properties by name, no dates; the header records each script's version (which
 * `--check` reads back).
 */
import { isObject } from "../core/json.js";
import { commentText, stringLiteral } from "./code-text.js";
import { byCodeUnit, docComment, type SchemaNode, noteLines, objectType, propertyKey, toTypeScript, type Conversion } from "./schema-to-ts.js";

/** One script's contract, as the module is made from it. */
export interface ScriptContract {
  handle: string;
  host: string;
  slug: string;
  /** The script's name and description, for the doc comment. */
  name?: string;
  description?: string;
  versionId: string;
  versionNumber: number;
  inputSchema: unknown;
  outputSchema: unknown;
}

/** A version the header records: what `--check` compares with the service. */
export interface RecordedVersion {
  address: string;
  versionNumber: number;
  versionId: string;
}

const HEADER_LINE = /^\/\/ {3}(\S+\/\S+\/\S+) version (\d+) \(id ([0-9A-Za-z-]+)\)$/;

/** The declaration that makes the registry strict: an unregistered address does not compile. */
const STRICT_CONFIG = "  // Strict: an address not registered above is a type error.\n  interface ReduckScriptsConfig {\n    strict: true;\n  }";

/**
 * Whether a module made by `scriptsModule` makes the registry strict (so that `--check` can say
 * how to make it again).
 *
 * @example
 * declaresStrict(scriptsModule(scripts, "reduck scripts types ... --strict", { strict: true })); // true
 */
export function declaresStrict(text: string): boolean {
  return text.includes(STRICT_CONFIG);
}

export const addressOf = (s: { handle: string; host: string; slug: string }) => `${s.handle}/${s.host}/${s.slug}`;

/** `send_email` -> `SendEmail`; `test-upload.pdf` -> `TestUploadPdf`. */
function pascal(text: string): string {
  const words = text.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join("");
  return /^[0-9]/.test(joined) || joined === "" ? `Script${joined}` : joined;
}

/**
 * Each script's type-name prefix: its slug, with the host (then the handle) in front where two
 * scripts of the set would otherwise share one.
 */
function prefixes(scripts: ScriptContract[]): Map<string, string> {
  const out = new Map<string, string>();
  const count = (names: string[]) => names.reduce((m, n) => m.set(n, (m.get(n) ?? 0) + 1), new Map<string, number>());
  const bySlug = count(scripts.map((s) => pascal(s.slug)));
  const byHostSlug = count(scripts.map((s) => pascal(s.host) + pascal(s.slug)));
  for (const s of scripts) {
    let name = pascal(s.slug);
    if ((bySlug.get(name) ?? 0) > 1) name = pascal(s.host) + pascal(s.slug);
    if ((byHostSlug.get(name) ?? 0) > 1) name = pascal(s.handle) + pascal(s.host) + pascal(s.slug);
    out.set(addressOf(s), name);
  }
  return out;
}

/** The inputs given as files: `type: "string", format: "file"` (the rule `reduck run` follows). */
export function fileInputNames(inputSchema: unknown): string[] {
  const properties = isObject(inputSchema) && isObject(inputSchema.properties) ? inputSchema.properties : {};
  return Object.entries(properties)
    .filter(([, p]) => isObject(p) && p.type === "string" && p.format === "file")
    .map(([name]) => name)
    .sort(byCodeUnit);
}

/** `$ref` names for one schema's `$defs`/`definitions`: `<Prefix><Part><Def>`. */
function definitions(schema: unknown, typeName: string): { conversion: Conversion; entries: Array<[string, SchemaNode]> } {
  const entries: Array<[string, SchemaNode]> = [];
  const names = new Map<string, string>();
  for (const key of ["$defs", "definitions"]) {
    const defs = isObject(schema) ? schema[key] : undefined;
    if (!isObject(defs)) continue;
    for (const def of Object.keys(defs).sort(byCodeUnit)) {
      const name = `${typeName}${pascal(def)}`;
      names.set(`#/${key}/${def}`, name);
      entries.push([name, defs[def] as SchemaNode]);
    }
  }
  return { conversion: { refName: (pointer) => names.get(pointer) }, entries };
}

/** `export type Name = ...;` or `export interface Name {...}`, with its comments. */
function declaration(name: string, type: string, comment: string, notes: string[]): string {
  const head = `${comment}${noteLines(notes, "")}`;
  if (type.startsWith("{\n")) return `${head}export interface ${name} ${type}\n`;
  return `${head}export type ${name} = ${type};\n`;
}

/** A schema part (args or result) with its own `$defs`, as declarations. */
function part(name: string, schema: unknown, comment: string, omit?: ReadonlySet<string>): string {
  const { conversion, entries } = definitions(schema, name);
  const out: string[] = [];
  const notes: string[] = [];
  let type: string;
  if (omit && isObject(schema)) {
    // The args: the input object without its file inputs.
    type =
      schema.type === "object" || isObject(schema.properties)
        ? objectType(schema, conversion, "", omit)
        : toTypeScript(schema as SchemaNode, conversion, "", notes);
  } else {
    type = toTypeScript(schema as SchemaNode | undefined, conversion, "", notes);
  }
  out.push(declaration(name, type, comment, notes));
  for (const [defName, def] of entries) {
    const defNotes: string[] = [];
    const defType = toTypeScript(def, conversion, "", defNotes);
    out.push(declaration(defName, defType, docComment(isObject(def) ? def.description : undefined, ""), defNotes));
  }
  return out.join("\n");
}

function filesPart(name: string, inputSchema: unknown, address: string): string {
  const files = fileInputNames(inputSchema);
  const required = new Set(isObject(inputSchema) && Array.isArray(inputSchema.required) ? (inputSchema.required as string[]) : []);
  const properties = isObject(inputSchema) && isObject(inputSchema.properties) ? inputSchema.properties : {};
  const about = `The file inputs of ${commentText(address)}`;
  if (files.length === 0) return `/** ${about}: none. */\nexport type ${name} = Record<string, never>;\n`;
  const comment = `/** ${about}: each a path, an open file, a Blob, bytes, a named file or an inline one. */\n`;
  const lines = files.map((f) => {
    const p = properties[f];
    return `${docComment(isObject(p) ? p.description : undefined, "  ")}  ${propertyKey(f)}${required.has(f) ? "" : "?"}: FileSource;`;
  });
  return `${comment}export interface ${name} {\n${lines.join("\n")}\n}\n`;
}

/**
 * The module for `scripts`, as text biome leaves unchanged. `strict`: the module also makes the
 * registry strict (ReduckScriptsConfig), so that an address it does not register is a type error.
 *
 * @example
 * const text = scriptsModule([{ handle: "reduck", host: "mail.google.com", slug: "send_email", versionId, versionNumber: 1, inputSchema, outputSchema }], "reduck scripts types reduck/mail.google.com/send_email");
 */
export function scriptsModule(scripts: ScriptContract[], command: string, { strict = false }: { strict?: boolean } = {}): string {
  const sorted = [...scripts].sort((a, b) => byCodeUnit(addressOf(a), addressOf(b)));
  const names = prefixes(sorted);
  const header = [
    "// Types of Reduck scripts, made from their contracts by `reduck scripts types`: do not edit.",
    `// Made with: ${commentText(command)}`,
    "// `reduck scripts types --check` says whether a script has moved on from the version below.",
    "// Scripts (address, version, version id):",
    ...sorted.map((s) => `//   ${commentText(`${addressOf(s)} version ${s.versionNumber} (id ${s.versionId})`)}`),
  ].join("\n");
  const sections: string[] = [];
  let usesFiles = false;
  const registry: string[] = [];
  for (const s of sorted) {
    const address = addressOf(s);
    const prefix = names.get(address)!;
    const files = new Set(fileInputNames(s.inputSchema));
    if (files.size) usesFiles = true;
    const title = s.name ? `${address}: ${s.name}` : address;
    const about = s.description ? `\n\n${s.description}` : "";
    sections.push(
      [
        part(`${prefix}Args`, s.inputSchema, docComment(`The arguments of ${title}, version ${s.versionNumber}.${about}`, ""), files),
        filesPart(`${prefix}Files`, s.inputSchema, address),
        part(`${prefix}Result`, s.outputSchema, docComment(`What ${address} returns (version ${s.versionNumber}).`, "")),
      ].join("\n"),
    );
    const key = stringLiteral(address);
    const entry = `    ${key}: { args: ${prefix}Args; files: ${prefix}Files; result: ${prefix}Result };`;
    // As biome lays it out: on one line when it fits in 160 columns.
    registry.push(
      entry.length <= 160 ? entry : `    ${key}: {\n      args: ${prefix}Args;\n      files: ${prefix}Files;\n      result: ${prefix}Result;\n    };`,
    );
  }
  // The module it augments, imported (and erased: type only): TypeScript refuses `declare module`
  // (TS2664) in a program where no file imports reduck-client yet, and the module then compiles alone.
  const imports = usesFiles ? 'import type { FileSource } from "reduck-client";\n' : 'import type {} from "reduck-client";\n';
  const config = strict ? `${STRICT_CONFIG}\n` : "";
  const augmentation = `declare module "reduck-client" {\n  interface ReduckScripts {\n${registry.join("\n")}\n  }\n${config}}\n`;
  return `${header}\n\n${imports}\n${sections.join("\n")}\n${augmentation}`;
}

/**
 * The versions a module's header records, in its order.
 *
 * @example
 * recordedVersions(text); // [{ address: "reduck/mail.google.com/send_email", versionNumber: 1, versionId: "..." }]
 */
export function recordedVersions(text: string): RecordedVersion[] {
  const out: RecordedVersion[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("//")) break;
    const m = HEADER_LINE.exec(line);
    if (m) out.push({ address: m[1]!, versionNumber: Number(m[2]), versionId: m[3]! });
  }
  return out;
}
